import type { Metadata } from 'next';
import { WebhookDetailView } from './webhook-detail-view';

export const metadata: Metadata = { title: 'Webhook endpoint' };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebhookDetailView id={id} />;
}
