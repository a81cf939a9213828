import type { ReactNode } from 'react';
import { ClipboardPenLineIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** No form yet: what one does, and the way to make the first. */
export function FormsEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="forms-empty" icon={<ClipboardPenLineIcon className="size-6" />} title="No sign-up forms yet" action={action}>
      Make a form, paste its snippet into a page of your site, and the people who fill it in join an audience. Each sign-up is kept with the
      consent text it was shown, the time and where it came from: the proof a regulator asks for.
    </EmptyState>
  );
}
