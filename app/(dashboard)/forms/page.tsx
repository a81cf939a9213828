import type { Metadata } from 'next';
import { FormsView } from './forms-view';

export const metadata: Metadata = { title: 'Sign-up forms' };

export default function FormsPage() {
  return <FormsView />;
}
