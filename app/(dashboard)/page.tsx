import type { Metadata } from 'next';
import { OverviewView } from './overview/overview-view';

export const metadata: Metadata = { title: 'Overview' };

/** The dashboard's home; the layout sends visitors without a session to sign in. */
export default function OverviewPage() {
  return <OverviewView />;
}
