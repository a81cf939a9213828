import type { Metadata } from 'next';
import { PropertiesView } from './properties-view';

export const metadata: Metadata = { title: 'Contact properties' };

export default function ContactPropertiesPage() {
  return <PropertiesView />;
}
