import type { Metadata } from 'next';
import { RunDetail } from './run-detail';

export const metadata: Metadata = { title: 'Automation run' };

export default async function AutomationRunPage({ params }: { params: Promise<{ id: string; runId: string }> }) {
  const { id, runId } = await params;
  return <RunDetail id={id} runId={runId} />;
}
