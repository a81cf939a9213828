'use client';

import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyButton } from '../../components/copy-button';
import { ModeBadge, PermissionBadge } from './key-badges';
import { NewKeySmtpSettings } from './new-key-smtp-settings';
import type { CreatedApiKey } from './types';
import { useOwnDomains } from './use-own-domains';

/** The new key's secret, the one time it is ever shown. */
export function SecretPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const { domains } = useOwnDomains();
  const pinnedTo = created.domainId ? domains.find((domain) => domain.id === created.domainId)?.name : undefined;
  return (
    <div className="space-y-4" data-testid="secret-panel">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-900">{created.name}</span>
        <PermissionBadge permission={created.permission} />
        <ModeBadge mode={created.mode} />
        {pinnedTo && (
          <span className="text-xs text-slate-500" data-testid="secret-panel-pin">
            only from {pinnedTo}
          </span>
        )}
      </div>
      <div>
        <label htmlFor="api-key-secret" className="mb-1.5 block text-sm font-medium text-slate-700">
          Secret
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <textarea
            id="api-key-secret"
            data-testid="api-key-secret"
            readOnly
            rows={2}
            spellCheck={false}
            value={created.key}
            onFocus={(event) => event.currentTarget.select()}
            className="block w-full min-w-0 resize-none rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
          />
          <CopyButton text={created.key} describe="secret" />
        </div>
      </div>
      <Alert tone="warning" title="Copy it now">
        This secret will not be shown again. Store it somewhere safe, such as your secrets manager. If you lose it, revoke the key and create a new one.
      </Alert>
      {created.permission === 'sending_access' && <NewKeySmtpSettings secret={created.key} />}
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
