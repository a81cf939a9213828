import { Badge, type BadgeTone } from '../../../components/badge';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { formatDateTime } from '../../../lib/format';
import type { FormSubmission } from '../types';

const STATUS: Record<FormSubmission['status'], { tone: BadgeTone; words: string; about: string }> = {
  subscribed: { tone: 'green', words: 'Subscribed', about: 'In the audience, subscribed' },
  awaiting_confirmation: { tone: 'amber', words: 'Awaiting confirmation', about: 'Subscribed once the person confirms from the email' },
  kept_opt_out: { tone: 'muted', words: 'Opted out before', about: 'The address had unsubscribed or is suppressed: a form alone does not undo that' },
};

export const SUBMISSION_COLUMNS = ['Email', 'Name', 'Status', 'Consent text', 'Submitted'];

export function SubmissionRow({ submission }: { submission: FormSubmission }) {
  const status = STATUS[submission.status];
  return (
    <tr data-testid="submission-row">
      <td className="py-2.5 pr-3 pl-5 font-mono text-[13px] text-slate-900">{submission.email}</td>
      <td className="px-3 py-2.5 text-slate-600">{[submission.firstName, submission.lastName].filter(Boolean).join(' ') || '—'}</td>
      <td className="px-3 py-2.5" title={status.about}>
        <Badge tone={status.tone}>{status.words}</Badge>
      </td>
      <td className="px-3 py-2.5 text-slate-600">v{submission.formVersion}</td>
      <td className="py-2.5 pr-5 pl-3 whitespace-nowrap text-slate-500">{formatDateTime(submission.createdAt)}</td>
    </tr>
  );
}

/** Placeholder rows while the submissions load. */
export const SubmissionSkeletonRows = ({ count = 2 }: { count?: number }) => (
  <SkeletonRows testId="submission-skeleton" count={count} cells={['h-4 w-48', 'h-4 w-24', 'h-5 w-28 rounded-md', 'h-4 w-8', 'h-4 w-32']} />
);
