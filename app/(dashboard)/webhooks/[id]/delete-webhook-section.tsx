'use client';

import { DeleteSection } from '../../../components/delete-section';
import type { Webhook } from '../types';
import { DeleteWebhookDialog } from './delete-webhook-dialog';

export function DeleteWebhookSection({ webhook }: { webhook: Webhook }) {
  return (
    <DeleteSection procedure="webhooks.delete" headingId="delete-webhook-heading" title="Delete endpoint" dialog={(open, onClose) => <DeleteWebhookDialog webhook={webhook} open={open} onClose={onClose} />}>
      Stop sending events to this URL. Scheduled retries are dropped and the delivery history is deleted.
    </DeleteSection>
  );
}
