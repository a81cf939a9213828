'use client';

import { useState } from 'react';
import { Button } from '../../../components/button';
import { Trash2Icon } from 'lucide-react';
import type { Domain } from '../types';
import { DeleteDomainDialog } from './delete-domain-dialog';

export function DeleteDomainSection({ domain }: { domain: Domain }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="delete-domain-heading" className="rounded-xl border border-red-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="delete-domain-heading" className="text-base font-semibold text-slate-900">
            Delete domain
          </h2>
          <p className="mt-1 text-sm text-slate-500">Stop sending from this domain. Its DKIM key is destroyed and API keys restricted to it are revoked.</p>
        </div>
        <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
          <Trash2Icon className="size-4" />
          Delete domain
        </Button>
      </div>
      <DeleteDomainDialog domain={domain} open={confirming} onClose={() => setConfirming(false)} />
    </section>
  );
}
