import type { Metadata } from 'next';
import { BroadcastPageView } from './broadcast-page-view';

export const metadata: Metadata = { title: 'Broadcast' };

export default async function BroadcastPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BroadcastPageView id={id} />;
}
