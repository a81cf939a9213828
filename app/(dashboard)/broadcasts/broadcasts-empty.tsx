import type { ReactNode } from 'react';
import { MegaphoneIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

const Code = ({ children }: { children: string }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-700">{children}</code>;

/** No broadcast yet: what one is, what it needs, and the way to write the first. */
export function BroadcastsEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="broadcasts-empty" icon={<MegaphoneIcon className="size-6" />} title="No broadcasts yet" action={action}>
      <p>
        A broadcast is one message to every subscribed contact of an audience: a newsletter, an announcement. Each contact gets their own copy, with{' '}
        <Code>{'{{ name }}'}</Code> filled in and a one-click unsubscribe link.
      </p>
      <p className="mt-2">You need an audience with contacts, and a verified domain to send from. Sending takes a paid plan; test copies work on every plan.</p>
    </EmptyState>
  );
}
