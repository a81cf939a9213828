import type { Metadata } from 'next';
import { NewFormView } from './new-form-view';

export const metadata: Metadata = { title: 'New sign-up form' };

export default function NewFormPage() {
  return <NewFormView />;
}
