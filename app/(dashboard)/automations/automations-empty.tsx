import type { ReactNode } from 'react';
import { WorkflowIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

/** No automation yet: what one is, and the way to make one. */
export function AutomationsEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="automations-empty" icon={<WorkflowIcon className="size-6" />} title="No automations yet" action={action}>
      <p>
        An automation takes each contact through a series of steps when something happens: a contact is created, joins a segment, or your application
        sends an event such as <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-700">user.created</code>.
      </p>
      <p className="mt-2">Its steps wait, send a published template, branch on a condition, or update the contact: a welcome series, a reminder, a follow-up.</p>
    </EmptyState>
  );
}
