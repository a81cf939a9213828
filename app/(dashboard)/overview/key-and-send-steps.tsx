'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Button } from '../../components/button';
import { MayCall } from '../../components/may-call';
import { RelativeTime } from '../../components/relative-time';
import { useRoleRefusal } from '../create-gate/role-refusal';
import { CreateApiKeyDialog } from '../api-keys/create-api-key-dialog';
import { ModeBadge } from '../api-keys/key-badges';
import { EmailStatusBadge } from '../emails/status-badge';
import { SendSnippets } from './send-snippets';
import type { Checklist } from './types';
import { useRefreshChecklist } from './use-overview';

const linkClass = 'font-medium text-indigo-600 hover:text-indigo-500';

/** Step 4: a key, created here; its secret is shown once, in the dialog. */
export function CreateKeyStep({ checklist }: { checklist: Checklist }) {
  const [creating, setCreating] = useState(false);
  const refresh = useRefreshChecklist();
  const roleRefusal = useRoleRefusal('apiKeys.create');
  return (
    <div className="space-y-3">
      {checklist.key ? (
        <p className="text-sm text-slate-600">
          Your key <strong className="font-medium text-slate-800">{checklist.key.name}</strong>{' '}
          <code className="font-mono text-xs text-slate-700">{checklist.key.tokenStart}…</code> <ModeBadge mode={checklist.key.mode} /> is ready. Manage keys on
          the{' '}
          <Link href="/api-keys" className={linkClass}>
            API keys
          </Link>{' '}
          page.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            A key authenticates your requests to the API and logins to the SMTP gateway. A <strong className="font-medium text-slate-800">test</strong> key runs
            the whole pipeline without delivering to any inbox: a safe first try, and no domain is needed for it (it sends from the shared sandbox).
          </p>
          <MayCall procedure="apiKeys.create" otherwise={<p className="text-xs text-slate-500" data-testid="role-note">{roleRefusal}</p>}>
            <Button onClick={() => setCreating(true)}>Create API key</Button>
          </MayCall>
        </>
      )}
      <CreateApiKeyDialog
        open={creating}
        onClose={() => {
          setCreating(false);
          void refresh();
        }}
      />
    </div>
  );
}

/** Step 5: a copy-paste request, and the last email once there is one. */
export function SendStep({ checklist }: { checklist: Checklist }) {
  const { email, sender, steps } = checklist;
  return (
    <div className="space-y-3">
      {email && (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600" data-testid="setup-last-email">
          Last email:
          {email.mode === checklist.mode ? (
            <Link href={`/emails/${email.id}`} className={linkClass}>
              {email.subject || '(no subject)'}
            </Link>
          ) : (
            <span className="font-medium text-slate-800">{email.subject || '(no subject)'}</span>
          )}
          <EmailStatusBadge status={email.status} />
          <RelativeTime iso={email.createdAt} className="text-slate-500" />
          {email.mode !== checklist.mode && <span className="text-slate-500">(switch to {email.mode === 'test' ? 'Test mode' : 'Live'} to see it)</span>}
        </p>
      )}
      <p className="text-sm text-slate-600">
        Send one to yourself, from <code className="font-mono text-xs text-slate-800">{sender.from}</code>.{' '}
        {sender.sandbox
          ? 'No need to wait for a domain: the shared sandbox sends at once, with a test key to any address (nothing is delivered), with a live key to your own address only.'
          : !steps.verified && 'The From domain must be verified first (step 3).'}
      </p>
      <SendSnippets checklist={checklist} />
    </div>
  );
}
