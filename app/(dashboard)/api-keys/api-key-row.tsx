import { ServerIcon } from 'lucide-react';
import { buttonClasses } from '../../components/button';
import { formatDate, formatDateTime } from '../../lib/format';
import { ModeBadge, PermissionBadge } from './key-badges';
import { RevokeApiKeyButton } from './revoke-api-key-button';
import { SMTP_PANEL_ID } from './smtp-panel';
import type { ApiKey } from './types';

export function ApiKeyRow({ apiKey }: { apiKey: ApiKey }) {
  return (
    <tr data-testid="api-key-row" data-key-id={apiKey.id} className="hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">{apiKey.name}</td>
      <td className="px-4 py-3 whitespace-nowrap">
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{apiKey.tokenStart}…</code>
      </td>
      <td className="px-4 py-3">
        <PermissionBadge permission={apiKey.permission} />
      </td>
      <td className="px-4 py-3">
        <ModeBadge mode={apiKey.mode} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={apiKey.createdAt} title={formatDateTime(apiKey.createdAt)}>
          {formatDate(apiKey.createdAt)}
        </time>
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
          <RevokeApiKeyButton apiKey={apiKey} />
        </div>
      </td>
    </tr>
  );
}
