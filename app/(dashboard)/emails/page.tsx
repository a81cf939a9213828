import type { Metadata } from 'next';
import { ComingSoon } from '../coming-soon';

export const metadata: Metadata = { title: 'Emails' };

export default function EmailsPage() {
  return <ComingSoon href="/emails" />;
}
