'use client';

import { useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyButton } from '../../components/copy-button';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from '../../lib/auth-errors';
import { useFormSubmit } from '../../lib/use-form-submit';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';

type Step = { kind: 'password' } | { kind: 'scan'; totpURI: string; backupCodes: string[] } | { kind: 'codes'; backupCodes: string[] };

/** The base32 secret an authenticator app reads from the URI, in groups of four for typing by hand. */
const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get('secret') ?? '';
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Setting up two-factor sign-in: the password, then the secret to add to an authenticator app
 * (a QR code of the otpauth link to scan, the secret to type or paste, the link itself), then a code from the app to confirm, then the recovery codes, shown once. `onDone` runs once the
 * person has seen the codes.
 */
export function TwoFactorSetup({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const start = useFormSubmit(async (form) => {
    const { data, error: refused } = await authClient.twoFactor.enable({ password: String(form.get('password')) });
    if (refused || !data || !('totpURI' in data) || !data.totpURI) return authErrorMessage(refused, 'Could not start the set-up');
    setStep({ kind: 'scan', totpURI: data.totpURI, backupCodes: data.backupCodes ?? [] });
  });
  const confirm = useFormSubmit(async (form) => {
    if (step.kind !== 'scan') return;
    const { error: refused } = await authClient.twoFactor.verifyTotp({ code: String(form.get('code')).replace(/\s+/g, '') });
    if (refused) return authErrorMessage(refused, 'That code did not match');
    setStep({ kind: 'codes', backupCodes: step.backupCodes });
  });

  if (step.kind === 'codes') return <RecoveryCodes codes={step.backupCodes} onDone={onDone} />;

  if (step.kind === 'password') {
    return (
      <form className="max-w-sm space-y-4" onSubmit={start.onSubmit}>
        <p className="text-sm text-slate-600">Enter your password to begin. You will need an authenticator app, such as 1Password, Bitwarden, Google Authenticator or Aegis.</p>
        {start.error && <Alert>{start.error}</Alert>}
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <div className="flex gap-2">
          <Button type="submit" loading={start.pending}>
            Continue
          </Button>
          {onCancel && (
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    );
  }

  const secret = secretOf(step.totpURI);
  return (
    <form className="space-y-5" onSubmit={confirm.onSubmit}>
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          <p>Scan this code with your authenticator app, or add the account by hand with the secret (choose “time-based” if asked):</p>
          <div className="mt-3 flex flex-col gap-5 sm:flex-row sm:items-start">
            <QrCode text={step.totpURI} label="QR code of the two-factor setup link" className="size-44 shrink-0 rounded-md border border-slate-200" />
            <div className="min-w-0 flex-1 space-y-3">
              <div>
                <p className="text-xs font-medium text-slate-500">Secret</p>
                <div className="mt-1 flex flex-wrap items-center gap-2">
                  <code className="rounded-md bg-slate-100 px-3 py-2 font-mono text-sm tracking-wider text-slate-900" data-testid="two-factor-secret">
                    {grouped(secret)}
                  </code>
                  <CopyButton text={secret} label="Copy secret" size="sm" />
                </div>
              </div>
              <div>
                <p className="text-xs font-medium text-slate-500">
                  Setup link (on a phone it opens the app:{' '}
                  <a href={step.totpURI} className="font-medium text-indigo-600 hover:text-indigo-500">
                    open in authenticator
                  </a>
                  )
                </p>
                <div className="mt-1 flex items-center gap-2">
                  <code className="min-w-0 flex-1 truncate rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-600" title={step.totpURI} data-testid="two-factor-uri">
                    {step.totpURI}
                  </code>
                  <CopyButton text={step.totpURI} label="Copy link" size="sm" />
                </div>
              </div>
            </div>
          </div>
        </li>
        <li>
          <p>Enter the 6-digit code the app shows to confirm.</p>
        </li>
      </ol>
      {confirm.error && <Alert>{confirm.error}</Alert>}
      <div className="flex max-w-sm items-end gap-2">
        <TextField className="flex-1" label="Authentication code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} required />
        <Button type="submit" loading={confirm.pending}>
          Turn on
        </Button>
      </div>
    </form>
  );
}
