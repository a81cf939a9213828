import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Suppressions' };

export default function SuppressionsPage() {
  return <ComingSoon href="/suppressions" />;
}
