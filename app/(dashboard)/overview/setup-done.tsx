import { CircleCheckIcon, XIcon } from 'lucide-react';
import type { Checklist } from './types';

/** What the finished checklist folds into: one line, the steps a click away, and a way to drop it. */
export function SetupDone({ checklist, onShowSteps, onDismiss }: { checklist: Checklist; onShowSteps: () => void; onDismiss: () => void }) {
  return (
    <div className="flex items-center gap-3 rounded-xl border border-emerald-200 bg-emerald-50/60 px-4 py-3 text-sm" data-testid="setup-done" role="status">
      <CircleCheckIcon className="size-5 shrink-0 text-emerald-600" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-emerald-900">
        <strong className="font-semibold">You’re set up.</strong> {checklist.domain?.name ?? 'Your domain'} is verified, you have a key, and your first email is in.
      </p>
      <button type="button" onClick={onShowSteps} className="shrink-0 font-medium text-emerald-800 hover:text-emerald-700">
        Show steps
      </button>
      <button type="button" onClick={onDismiss} className="shrink-0 rounded-md p-1 text-emerald-700 hover:bg-emerald-100" aria-label="Dismiss">
        <XIcon className="size-4" />
      </button>
    </div>
  );
}
