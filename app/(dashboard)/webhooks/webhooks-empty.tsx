import type { ReactNode } from 'react';
import { WebhookIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** No endpoint yet: what webhooks are for, and the way to add one. */
export function WebhooksEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="webhooks-empty" icon={<WebhookIcon className="size-6" />} title="No webhook endpoints yet" action={action}>
      Add an endpoint of your application and we POST it a signed event as things happen: an email is delivered, bounces or is opened, a domain is
      verified, a contact unsubscribes. Failed deliveries are retried, and you can replay any of them from here.
    </EmptyState>
  );
}
