import Link from 'next/link';
import { LogOutIcon } from 'lucide-react';
import { MayCall } from '../../../components/may-call';
import { RelativeTime } from '../../../components/relative-time';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { SubscriptionBadge } from '../../audiences/[id]/subscription-badge';
import type { ContactSegment } from '../types';

/**
 * A segment the contact is in: its name (to its page), the contact's subscription there, since
 * when, and leaving it; for a rule segment, that its rules put the contact there instead.
 */
export function SegmentRow({ segment, ruled, onLeave }: { segment: ContactSegment; ruled: boolean; onLeave: () => void }) {
  const testMode = useDashboardMode() === 'test';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2.5" data-testid="contact-segment" data-segment-id={segment.id}>
      <Link href={`/audiences/${segment.id}`} className="w-full font-medium break-words text-slate-900 hover:text-indigo-600 hover:underline sm:w-auto sm:min-w-0 sm:flex-1" data-testid="contact-segment-name">
        {segment.name}
      </Link>
      <SubscriptionBadge subscribed={segment.subscribed} />
      <span className="text-sm whitespace-nowrap text-slate-500">
        joined <RelativeTime iso={segment.joinedAt} />
      </span>
      {ruled ? (
        <span className="ml-auto text-xs text-slate-500 sm:ml-0" data-testid="contact-segment-ruled">
          by its rules
        </span>
      ) : (
        <MayCall procedure="contacts.removeSegment">
          <button
            type="button"
            onClick={onLeave}
            disabled={testMode}
            aria-label={`Remove from ${segment.name}`}
            title="Remove from this segment"
            className="ml-auto inline-flex rounded-md p-1 text-slate-400 hover:bg-red-50 hover:text-red-600 disabled:cursor-not-allowed disabled:opacity-50 sm:ml-0"
          >
            <LogOutIcon className="size-4" />
          </button>
        </MayCall>
      )}
    </li>
  );
}
