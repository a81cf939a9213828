import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EmailsView } from './emails-view';

export const metadata: Metadata = { title: 'Emails' };

/** The view reads its filters from the URL, which is only known in the browser: hence the boundary. */
export default function EmailsPage() {
  return (
    <Suspense>
      <EmailsView />
    </Suspense>
  );
}
