'use client';

import { useState } from 'react';
import { Trash2Icon } from 'lucide-react';
import { Button } from '../../../components/button';
import type { Template } from '../types';
import { DeleteTemplateDialog } from './delete-template-dialog';

export function DeleteTemplateSection({ template }: { template: Template }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="delete-template-heading" className="rounded-xl border border-red-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="delete-template-heading" className="text-base font-semibold text-slate-900">
            Delete template
          </h2>
          <p className="mt-1 text-sm text-slate-500">Sends that name this template are refused afterwards. Emails already sent with it are not changed.</p>
        </div>
        <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
          <Trash2Icon className="size-4" />
          Delete template
        </Button>
      </div>
      <DeleteTemplateDialog template={template} open={confirming} onClose={() => setConfirming(false)} />
    </section>
  );
}
