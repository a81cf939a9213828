'use client';

import { useState } from 'react';
import { Trash2Icon } from 'lucide-react';
import { Button } from '../../../components/button';
import { DeleteAudienceDialog } from '../delete-audience-dialog';
import type { Audience } from '../types';

export function DeleteAudienceSection({ audience }: { audience: Audience }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="delete-audience-heading" className="rounded-xl border border-red-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="delete-audience-heading" className="text-base font-semibold text-slate-900">
            Delete audience
          </h2>
          <p className="mt-1 text-sm text-slate-500">Delete the audience and every contact in it. Not possible while a broadcast is scheduled for it or sending to it.</p>
        </div>
        <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
          <Trash2Icon className="size-4" />
          Delete audience
        </Button>
      </div>
      <DeleteAudienceDialog audience={audience} open={confirming} onClose={() => setConfirming(false)} leaveTo="/audiences" />
    </section>
  );
}
