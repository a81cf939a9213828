import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { formatDate, formatDateTime } from '../../lib/format';
import { EventsSummary } from './events-summary';
import { HealthBadge } from './health-badge';
import { LastFailure } from './last-failure';
import type { WebhookSummary } from './types';

export function WebhookRow({ webhook }: { webhook: WebhookSummary }) {
  const href = `/webhooks/${webhook.id}`;
  return (
    <tr data-testid="webhook-row" data-webhook-id={webhook.id} className="align-top hover:bg-slate-50/60">
      <td className="max-w-96 min-w-64 py-3 pr-4 pl-5 font-medium text-slate-900">
        {/* A long URL wraps anywhere rather than widen the table, and stops at three lines; the page shows it whole. */}
        <Link href={href} title={webhook.url} className="line-clamp-3 font-mono text-[13px] wrap-anywhere hover:text-indigo-600 hover:underline">
          {webhook.url}
        </Link>
      </td>
      <td className="px-4 py-3">
        <EventsSummary events={webhook.events} />
      </td>
      <td className="px-4 py-3">
        <HealthBadge health={webhook.health} />
      </td>
      <td className="max-w-64 px-4 py-3">
        <LastFailure health={webhook.health} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={webhook.createdAt} title={formatDateTime(webhook.createdAt)}>
          {formatDate(webhook.createdAt)}
        </time>
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${webhook.url}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
