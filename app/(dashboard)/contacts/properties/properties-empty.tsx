import type { ReactNode } from 'react';
import { TagsIcon } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';

/** No property yet: what properties are for, and the way to define one. */
export function PropertiesEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="properties-empty" icon={<TagsIcon className="size-6" />} title="No contact properties yet" action={action}>
      A property is a field of your own on every contact, such as a plan, a company or a renewal date, for personalizing broadcasts. Each has a type
      (text, number, true or false, or date) and every value given is checked against it; a fallback stands in for contacts without a value.
    </EmptyState>
  );
}
