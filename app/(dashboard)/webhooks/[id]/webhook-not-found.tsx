import { WebhookIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, an endpoint of another organization, or one deleted meanwhile. */
export function WebhookNotFound() {
  return (
    <NotFoundState testId="webhook-not-found" icon={<WebhookIcon className="size-6" />} title="Endpoint not found" backHref="/webhooks" backLabel="Back to webhooks">
      This webhook endpoint does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}
