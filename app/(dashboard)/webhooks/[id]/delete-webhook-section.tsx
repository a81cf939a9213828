'use client';

import { useState } from 'react';
import { Trash2Icon } from 'lucide-react';
import { Button } from '../../../components/button';
import type { Webhook } from '../types';
import { DeleteWebhookDialog } from './delete-webhook-dialog';

export function DeleteWebhookSection({ webhook }: { webhook: Webhook }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="delete-webhook-heading" className="rounded-xl border border-red-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="delete-webhook-heading" className="text-base font-semibold text-slate-900">
            Delete endpoint
          </h2>
          <p className="mt-1 text-sm text-slate-500">Stop sending events to this URL. Scheduled retries are dropped and the delivery history is deleted.</p>
        </div>
        <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
          <Trash2Icon className="size-4" />
          Delete endpoint
        </Button>
      </div>
      <DeleteWebhookDialog webhook={webhook} open={confirming} onClose={() => setConfirming(false)} />
    </section>
  );
}
