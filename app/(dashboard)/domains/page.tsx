import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DomainsView } from './domains-view';

export const metadata: Metadata = { title: 'Domains' };

/** The view reads `?add=` from the URL, which is only known in the browser: hence the boundary. */
export default function DomainsPage() {
  return (
    <Suspense>
      <DomainsView />
    </Suspense>
  );
}
