import type { Metadata } from 'next';
import { PrivacyView } from './privacy-view';

export const metadata: Metadata = { title: 'Privacy record' };

export default function PrivacyPage() {
  return <PrivacyView />;
}
