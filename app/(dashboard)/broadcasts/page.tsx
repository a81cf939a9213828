import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Broadcasts' };

export default function BroadcastsPage() {
  return <ComingSoon href="/broadcasts" />;
}
