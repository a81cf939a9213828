import type { Metadata } from 'next';
import { AutomationsView } from './automations-view';

export const metadata: Metadata = { title: 'Automations' };

export default function AutomationsPage() {
  return <AutomationsView />;
}
