import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Webhooks' };

export default function WebhooksPage() {
  return <ComingSoon href="/webhooks" />;
}
