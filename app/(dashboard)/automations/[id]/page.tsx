import type { Metadata } from 'next';
import { AutomationView } from './automation-view';

export const metadata: Metadata = { title: 'Automation' };

export default async function AutomationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AutomationView id={id} />;
}
