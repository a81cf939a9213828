import type { Metadata } from 'next';
import { FormDetailView } from './form-detail-view';

export const metadata: Metadata = { title: 'Sign-up form' };

export default async function FormPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <FormDetailView id={id} />;
}
