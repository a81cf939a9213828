import type { ReactNode } from 'react';
import { UsersIcon } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';

/** No contact to list: none in the audience yet (none its rules match, for a rule segment), or none matching the search and filter. */
export function ContactsEmpty({ filtered, ruled, actions }: { filtered: boolean; ruled: boolean; actions: ReactNode }) {
  if (filtered) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-sm text-slate-500" data-testid="contacts-empty" data-filtered="true">
        No contact matches this search and filter.
      </div>
    );
  }
  if (ruled) {
    return (
      <EmptyState testId="contacts-empty" icon={<UsersIcon className="size-6" />} title="No contact matched its rules">
        When contacts come to match them (a property value set, a broadcast opened), they join this segment the next time its rules are evaluated: when
        they are changed, or when a broadcast to it is sent.
      </EmptyState>
    );
  }
  return (
    <EmptyState testId="contacts-empty" icon={<UsersIcon className="size-6" />} title="No contacts yet" action={actions}>
      Add people one by one, or import a CSV file exported from your spreadsheet, CRM or previous email provider: a column of addresses, and
      optionally names and whether each person is subscribed.
    </EmptyState>
  );
}
