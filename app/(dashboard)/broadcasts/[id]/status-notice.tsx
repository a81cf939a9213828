import { BanIcon, CircleCheckIcon, CircleXIcon, SendIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from '../../../components/cx';
import { RelativeTime } from '../../../components/relative-time';
import { countOf, formatDateTime } from '../../../lib/format';
import type { Broadcast } from '../types';
import { HoldNotice } from './hold-notice';

const TONES = {
  info: 'border-indigo-200 bg-indigo-50 text-indigo-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  error: 'border-red-200 bg-red-50 text-red-800',
  muted: 'border-slate-200 bg-slate-50 text-slate-700',
} as const;

function Notice({ tone, icon, title, children }: { tone: keyof typeof TONES; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('flex gap-3 rounded-xl border p-4 text-sm', TONES[tone])} data-testid="status-notice" data-tone={tone}>
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0">
        <p className="font-semibold">{title}</p>
        <div className="mt-0.5">{children}</div>
      </div>
    </div>
  );
}

/** What the status means for this broadcast, in a sentence, and what happens next. */
export function StatusNotice({ broadcast }: { broadcast: Broadcast }) {
  const { counts } = broadcast;
  switch (broadcast.status) {
    case 'sending':
      return (
        <Notice tone="info" icon={<SendIcon className="size-5 text-indigo-600" />} title="Sending">
          The messages are being handed to delivery, a chunk of contacts at a time; this page follows along. You can cancel what has not gone yet.
        </Notice>
      );
    case 'held':
      return broadcast.heldReason ? <HoldNotice broadcast={broadcast} reason={broadcast.heldReason} /> : null;
    case 'sent':
      return (
        <Notice tone="success" icon={<CircleCheckIcon className="size-5 text-emerald-600" />} title="Sent">
          {countOf(counts.queued, 'message')} handed to delivery
          {broadcast.sentAt && (
            <>
              , the last <RelativeTime iso={broadcast.sentAt} /> ({formatDateTime(broadcast.sentAt)})
            </>
          )}
          . Deliveries, bounces, opens and clicks keep coming in below.
        </Notice>
      );
    case 'failed':
      return (
        <Notice tone="error" icon={<CircleXIcon className="size-5 text-red-600" />} title="Failed">
          <span data-testid="failed-reason">{broadcast.failedReason ?? 'The broadcast could not go on.'}</span> {countOf(counts.queued, 'message')} had been handed to
          delivery before it stopped; they go out. A failed broadcast does not resume: fix the cause, and a new broadcast goes to the whole audience again.
        </Notice>
      );
    case 'cancelled':
      return (
        <Notice tone="muted" icon={<BanIcon className="size-5 text-slate-500" />} title="Cancelled">
          Cancelled{broadcast.cancelledAt && <> {formatDateTime(broadcast.cancelledAt)}</>}.{' '}
          {broadcast.startedAt
            ? `${countOf(counts.queued - counts.canceled, 'message')} had already gone to delivery; ${countOf(counts.canceled, 'queued message')} ${counts.canceled === 1 ? 'was' : 'were'} withdrawn.`
            : 'Nothing was sent.'}
        </Notice>
      );
    default:
      return null;
  }
}
