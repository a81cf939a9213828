import type { Metadata } from 'next';
import { AudiencesView } from './audiences-view';

export const metadata: Metadata = { title: 'Audiences' };

export default function AudiencesPage() {
  return <AudiencesView />;
}
