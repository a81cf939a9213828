import type { Metadata } from 'next';
import { DomainDetailView } from './domain-detail-view';

export const metadata: Metadata = { title: 'Domain' };

export default async function DomainPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <DomainDetailView id={id} />;
}
