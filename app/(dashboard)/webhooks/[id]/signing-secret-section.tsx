'use client';

import { useState } from 'react';
import { EyeIcon, EyeOffIcon, RotateCwIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { Skeleton } from '../../../components/skeleton';
import { SecretValue } from '../secret-value';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { useSigningSecret } from './use-signing-secret';

/**
 * The secrets receivers verify signatures with: hidden until asked for, and replaceable. In live
 * mode, the live secret (it signs every event) and the test-mode one (it signs test-mode events
 * too); in test mode, the test-mode one only, as a test key reads it.
 */
export function SigningSecretSection({ webhookId }: { webhookId: string }) {
  const secret = useSigningSecret(webhookId);
  const [rotating, setRotating] = useState<'own' | 'test' | null>(null);
  const shown = secret.query.data;

  return (
    <section aria-labelledby="signing-secret-heading" className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="signing-secret">
      <h2 id="signing-secret-heading" className="text-base font-semibold text-slate-900">
        Signing secret
      </h2>
      <p className="mt-1 text-sm text-slate-500">Every delivery is signed with it; your receiver checks the signature with the same secret.</p>
      <div className="mt-4 flex-1">
        {!secret.revealed && (
          <div className="flex items-center gap-2">
            <code className="block h-9 min-w-0 flex-1 truncate rounded-md bg-slate-50 px-3 py-2 font-mono text-sm text-slate-400 ring-1 ring-slate-200 ring-inset" aria-label="Hidden secret">
              whsec_••••••••••••••••••••••••
            </code>
            <Button variant="secondary" onClick={secret.reveal}>
              <EyeIcon className="size-4" />
              Reveal
            </Button>
          </div>
        )}
        {secret.revealed && secret.query.isPending && <Skeleton className="h-9 w-full" />}
        {secret.revealed && secret.query.isError && <ErrorAlert error={secret.query.error} fallbackTitle="Could not load the secret" />}
        {secret.revealed && shown && (
          <div className="space-y-3">
            <SecretValue secret={shown.secret} label={shown.mode === 'test' ? 'Test-mode signing secret' : 'Signing secret'} />
            {shown.testSecret !== undefined && <SecretValue secret={shown.testSecret} label="Test-mode signing secret" testId="webhook-test-secret" />}
            {shown.testSecret !== undefined && (
              <p className="text-xs text-slate-500">Test-mode events carry a signature with each secret: a test receiver verifies them with the test-mode one, which signs no live event.</p>
            )}
          </div>
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        {secret.revealed && (
          <Button variant="ghost" size="sm" onClick={secret.hide}>
            <EyeOffIcon className="size-4" />
            Hide
          </Button>
        )}
        <Button variant="secondary" size="sm" onClick={() => setRotating('own')}>
          <RotateCwIcon className="size-4" />
          Rotate secret
        </Button>
        {shown?.testSecret !== undefined && (
          <Button variant="ghost" size="sm" onClick={() => setRotating('test')}>
            <RotateCwIcon className="size-4" />
            Rotate test secret
          </Button>
        )}
      </div>
      <RotateSecretDialog webhookId={webhookId} open={rotating === 'own'} onClose={() => setRotating(null)} onRotated={secret.showRotated} />
      <RotateSecretDialog webhookId={webhookId} mode="test" open={rotating === 'test'} onClose={() => setRotating(null)} onRotated={secret.showRotated} />
    </section>
  );
}
