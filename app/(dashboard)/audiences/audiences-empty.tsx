import type { ReactNode } from 'react';
import { UsersIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** No audience yet: what audiences are for, and the way to make one. */
export function AudiencesEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="audiences-empty" icon={<UsersIcon className="size-6" />} title="No audiences yet" action={action}>
      An audience is a list of contacts you send broadcasts to, such as your newsletter readers or the customers of one product. Create one, then add
      contacts one by one, import them from a CSV file or add them through the API. Each contact keeps its subscription status: people who unsubscribe
      are not sent broadcasts.
    </EmptyState>
  );
}
