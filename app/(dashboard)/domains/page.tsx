import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Domains' };

export default function DomainsPage() {
  return <ComingSoon href="/domains" />;
}
