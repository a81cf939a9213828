import type { Metadata } from 'next';
import { BillingView } from './billing-view';

export const metadata: Metadata = { title: 'Usage and billing' };

export default function BillingPage() {
  return <BillingView />;
}
