import { ServerIcon } from 'lucide-react';
import { buttonClasses } from '../../components/button';
import { MayCall } from '../../components/may-call';
import { RelativeTime } from '../../components/relative-time';
import { formatDate, formatDateTime } from '../../lib/format';
import { ModeBadge, PermissionBadge } from './key-badges';
import { RenameApiKeyButton } from './rename-api-key-button';
import { RevokeApiKeyButton } from './revoke-api-key-button';
import { SMTP_PANEL_ID } from './smtp-panel';
import type { ApiKey } from './types';

/** One key; `pinnedTo` is the name of the domain a pinned sending key may send from. */
export function ApiKeyRow({ apiKey, pinnedTo }: { apiKey: ApiKey; pinnedTo?: string }) {
  return (
    <tr data-testid="api-key-row" data-key-id={apiKey.id} className="hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">{apiKey.name}</td>
      <td className="px-4 py-3 whitespace-nowrap">
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{apiKey.tokenStart}…</code>
      </td>
      <td className="px-4 py-3">
        <PermissionBadge permission={apiKey.permission} />
        {apiKey.domainId && (
          <div className="mt-1 text-xs whitespace-nowrap text-slate-500" data-testid="api-key-pin">
            only from {pinnedTo ?? 'one domain'}
          </div>
        )}
      </td>
      <td className="px-4 py-3">
        <ModeBadge mode={apiKey.mode} />
        {apiKey.dialect === 'resend' && (
          <div className="mt-1 text-xs whitespace-nowrap text-slate-500" data-testid="api-key-dialect" title="Answers in Resend's shapes, for Resend's SDKs">
            Resend's answers
          </div>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={apiKey.createdAt} title={formatDateTime(apiKey.createdAt)}>
          {formatDate(apiKey.createdAt)}
        </time>
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500" data-testid="api-key-last-used">
        {apiKey.lastUsedAt ? <RelativeTime iso={apiKey.lastUsedAt} /> : <span className="text-slate-400">Never</span>}
      </td>
      <td className="py-3 pr-5 pl-4">
        <div className="flex justify-end gap-2">
          {apiKey.permission === 'sending_access' && (
            // A plain anchor: the browser scrolls to the panel and marks it :target.
            <a href={`#${SMTP_PANEL_ID}`} className={buttonClasses('secondary', 'sm')} aria-label={`SMTP settings for ${apiKey.name}`} title="SMTP settings">
              <ServerIcon className="size-4" />
              SMTP
            </a>
          )}
          <MayCall procedure="apiKeys.rename">
            <RenameApiKeyButton apiKey={apiKey} />
          </MayCall>
          <MayCall procedure="apiKeys.revoke">
            <RevokeApiKeyButton apiKey={apiKey} />
          </MayCall>
        </div>
      </td>
    </tr>
  );
}
