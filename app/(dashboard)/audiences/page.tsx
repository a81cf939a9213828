import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Audiences' };

export default function AudiencesPage() {
  return <ComingSoon href="/audiences" />;
}
