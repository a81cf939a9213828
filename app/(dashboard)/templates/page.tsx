import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Templates' };

export default function TemplatesPage() {
  return <ComingSoon href="/templates" />;
}
