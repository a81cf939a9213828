import type { ReactNode } from 'react';
import { BookUserIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** No contact to list: none in the organization yet, or none matching the search and segment. */
export function ContactsEmpty({ filtered, action }: { filtered: boolean; action: ReactNode }) {
  if (filtered) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="contacts-empty" data-filtered="true">
        No contact matches this search and segment.
      </div>
    );
  }
  return (
    <EmptyState testId="contacts-empty" icon={<BookUserIcon className="size-6" />} title="No contacts yet" action={action}>
      A contact is one person, by address, across all your segments: their names, the values of your contact properties, the segments they are in and
      whether they unsubscribed from everything. Add one here, import a CSV file into an audience, or add them through the API.
    </EmptyState>
  );
}
