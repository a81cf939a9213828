import type { Metadata } from 'next';
import { AudienceDetailView } from './audience-detail-view';

export const metadata: Metadata = { title: 'Audience' };

export default async function AudiencePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AudienceDetailView id={id} />;
}
