'use client';

import { useState, type ReactNode } from 'react';
import { Trash2Icon } from 'lucide-react';
import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { useMay } from '../lib/use-role';
import { Button } from './button';

/**
 * The danger zone at the foot of a detail page: what deleting does, and a button, labelled as the
 * heading, that opens the confirmation `dialog` renders. Shown only to a role that may call
 * `procedure`, the deletion the dialog makes.
 */
export function DeleteSection({ procedure, headingId, title, children, dialog }: {
  procedure: DashboardProcedure;
  headingId: string;
  title: string;
  children: ReactNode;
  dialog: (open: boolean, onClose: () => void) => ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const may = useMay(procedure);
  if (!may) return null;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-red-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-500">{children}</p>
        </div>
        <Button variant="secondary" className="text-red-700" onClick={() => setConfirming(true)}>
          <Trash2Icon className="size-4" />
          {title}
        </Button>
      </div>
      {dialog(confirming, () => setConfirming(false))}
    </section>
  );
}
