import type { Metadata } from 'next';
import { RunsView } from './runs-view';

export const metadata: Metadata = { title: 'Automation runs' };

export default async function AutomationRunsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunsView id={id} />;
}
