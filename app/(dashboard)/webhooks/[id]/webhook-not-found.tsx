import Link from 'next/link';
import { WebhookIcon } from 'lucide-react';
import { buttonClasses } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';

/** An unknown id, an endpoint of another organization, or one deleted meanwhile. */
export function WebhookNotFound() {
  return (
    <EmptyState
      testId="webhook-not-found"
      icon={<WebhookIcon className="size-6" />}
      title="Endpoint not found"
      action={
        <Link href="/webhooks" className={buttonClasses('secondary')}>
          Back to webhooks
        </Link>
      }
    >
      This webhook endpoint does not exist on your account. It may have been deleted.
    </EmptyState>
  );
}
