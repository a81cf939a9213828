import type { Metadata } from 'next';
import { NewBroadcastView } from './new-broadcast-view';

export const metadata: Metadata = { title: 'New broadcast' };

export default function NewBroadcastPage() {
  return <NewBroadcastView />;
}
