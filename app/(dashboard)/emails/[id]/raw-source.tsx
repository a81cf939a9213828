'use client';

import { useQuery } from '@tanstack/react-query';
import { DownloadIcon } from 'lucide-react';
import { Alert } from '../../../components/alert';
import { buttonClasses } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { formatBytes, formatPreciseDateTime } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';

/**
 * The MIME source, headers and DKIM signature included: built again as it was sent (the service
 * keeps no copy, the message is deterministic; docs/emails.md, "Raw source"). Read-only; copied
 * whole, or downloaded as .eml when it is longer than what is shown.
 */
export function RawSource({ emailId }: { emailId: string }) {
  const trpc = useTRPC();
  const mode = useDashboardMode();
  const query = useQuery(trpc.emails.rawSource.queryOptions({ id: emailId }));

  if (query.isPending) {
    return (
      <div className="space-y-2 px-5 py-4" aria-busy="true" data-testid="raw-source-loading">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} className="h-3.5" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="px-5 py-4">
        <ErrorAlert error={query.error} fallbackTitle="Could not build the raw source" action={<RetryButton query={query} />} />
      </div>
    );
  }
  const raw = query.data;
  if (!raw.available) {
    return (
      <div className="px-5 py-4">
        <Alert tone="info" title="No raw source">
          <span data-testid="raw-source-unavailable">{raw.reason}</span>
        </Alert>
      </div>
    );
  }

  const state = raw.sent
    ? `As sent, ${formatPreciseDateTime(raw.date)}`
    : mode === 'test'
      ? 'Test mode: never sent. The message a live send would carry.'
      : 'Not sent yet: the message as it will go.';
  return (
    <div data-testid="raw-source-panel" data-sent={raw.sent || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-xs text-slate-600">
        <span data-testid="raw-source-state">
          {state} <span className="text-slate-400">· {formatBytes(raw.bytes)}</span>
        </span>
        <span className="flex gap-2">
          {!raw.truncated && <CopyButton text={raw.source} size="sm" describe="raw source" />}
          <a href={`/emails/${emailId}/source`} download className={buttonClasses('secondary', 'sm')}>
            <DownloadIcon className="size-4" />
            Download .eml
          </a>
        </span>
      </div>
      {(raw.truncated || raw.expiredAttachments.length > 0) && (
        <div className="space-y-1 border-b border-slate-200 px-4 py-2 text-xs text-slate-600">
          {raw.truncated && <p data-testid="raw-source-truncated">The first {formatBytes(raw.source.length)} are shown: download the .eml for the whole message.</p>}
          {raw.expiredAttachments.length > 0 && <p>Attachments past their 30 days are not in it: {raw.expiredAttachments.join(', ')}.</p>}
        </div>
      )}
      <pre
        tabIndex={0}
        aria-label="Raw source"
        className="max-h-[32rem] overflow-auto px-5 py-4 font-mono text-xs leading-5 whitespace-pre-wrap text-slate-800 wrap-anywhere"
        data-testid="raw-source"
      >
        {raw.source}
      </pre>
    </div>
  );
}
