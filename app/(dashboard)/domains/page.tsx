import type { Metadata } from 'next';
import { DomainsView } from './domains-view';

export const metadata: Metadata = { title: 'Domains' };

export default function DomainsPage() {
  return <DomainsView />;
}
