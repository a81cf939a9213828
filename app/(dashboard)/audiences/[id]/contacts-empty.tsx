import type { ReactNode } from 'react';
import { UsersIcon } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';

/** No contact to list: none in the audience yet, or none matching the search and filter. */
export function ContactsEmpty({ filtered, actions }: { filtered: boolean; actions: ReactNode }) {
  if (filtered) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="contacts-empty" data-filtered="true">
        No contact matches this search and filter.
      </div>
    );
  }
  return (
    <EmptyState testId="contacts-empty" icon={<UsersIcon className="size-6" />} title="No contacts yet" action={actions}>
      Add people one by one, or import a CSV file exported from your spreadsheet, CRM or previous email provider: a column of addresses, and
      optionally names and whether each person is subscribed.
    </EmptyState>
  );
}
