'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheckIcon, ShieldOffIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { Skeleton } from '../../components/skeleton';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from '../../lib/auth-errors';
import { useTRPC } from '../../lib/trpc';
import { useFormSubmit } from '../../lib/use-form-submit';
import { RecoveryCodes } from './recovery-codes';
import { TwoFactorSetup } from './two-factor-setup';

type Mode = { kind: 'idle' } | { kind: 'setting-up' } | { kind: 'regenerate' } | { kind: 'new-codes'; codes: string[] } | { kind: 'turn-off' };

function Card({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="two-factor-heading" data-testid="two-factor-section" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      {children}
    </section>
  );
}

/** A password asked for again before a sensitive change, with the server's refusal under it. */
function PasswordConfirm({ description, submitLabel, danger, onConfirm, onCancel }: {
  description: string;
  submitLabel: string;
  danger?: boolean;
  onConfirm: (password: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const { pending, error, onSubmit } = useFormSubmit((form) => onConfirm(String(form.get('password'))));
  return (
    <form className="max-w-sm space-y-4" onSubmit={onSubmit}>
      <p className="text-sm text-slate-600">{description}</p>
      {error && <Alert>{error}</Alert>}
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      <div className="flex gap-2">
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={pending}>
          {submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The person's own two-factor sign-in, on the account page: set it up (authenticator app and
 * recovery codes), make new recovery codes, or turn it off; each asks for the password.
 */
export function TwoFactorSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions({}));
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const idle = () => setMode({ kind: 'idle' });
  // Everything may have been refused before (an organization that requires it): read it all again.
  const refresh = () => queryClient.invalidateQueries();

  const heading = (
    <div className="flex flex-wrap items-center gap-3">
      <h2 id="two-factor-heading" className="text-base font-semibold text-slate-900">
        Two-factor sign-in
      </h2>
      {status.data && (status.data.enabled ? <Badge tone="green">On</Badge> : <Badge tone="neutral">Off</Badge>)}
    </div>
  );

  if (status.isPending) {
    return (
      <Card>
        {heading}
        <div className="mt-4 space-y-2" data-testid="two-factor-loading">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-9 w-40" />
        </div>
      </Card>
    );
  }
  if (status.isError) {
    return (
      <Card>
        {heading}
        <div className="mt-4">
          <ErrorAlert error={status.error} fallbackTitle="Could not read your two-factor sign-in" />
        </div>
      </Card>
    );
  }

  const { enabled, organizationRequires } = status.data;
  return (
    <Card>
      {heading}
      <p className="mt-1 text-sm text-slate-500">
        After your password, sign-in asks for a code from an authenticator app, or one of your recovery codes.
        {organizationRequires && ' Your organization requires it of every member.'}
      </p>
      <div className="mt-4">
        {mode.kind === 'setting-up' && (
          <TwoFactorSetup
            onCancel={idle}
            onDone={() => {
              idle();
              void refresh();
            }}
          />
        )}
        {mode.kind === 'new-codes' && <RecoveryCodes codes={mode.codes} onDone={idle} />}
        {mode.kind === 'regenerate' && (
          <PasswordConfirm
            description="New recovery codes replace all of your current ones, used or not."
            submitLabel="Make new codes"
            onCancel={idle}
            onConfirm={async (password) => {
              const { data, error } = await authClient.twoFactor.generateBackupCodes({ password });
              if (error || !data) return authErrorMessage(error, 'Could not make new codes');
              setMode({ kind: 'new-codes', codes: data.backupCodes });
              return null;
            }}
          />
        )}
        {mode.kind === 'turn-off' && (
          <PasswordConfirm
            description={
              organizationRequires
                ? 'Your organization requires two-factor sign-in: once it is off, you will be asked to set it up again before you can continue.'
                : 'Sign-in will ask for your password only.'
            }
            submitLabel="Turn off"
            danger
            onCancel={idle}
            onConfirm={async (password) => {
              const { error } = await authClient.twoFactor.disable({ password });
              if (error) return authErrorMessage(error, 'Could not turn it off');
              idle();
              await refresh();
              return null;
            }}
          />
        )}
        {mode.kind === 'idle' &&
          (enabled ? (
            <div className="flex flex-wrap items-center gap-2">
              <p className="mr-2 flex items-center gap-2 text-sm text-slate-700">
                <ShieldCheckIcon className="size-4 text-emerald-600" aria-hidden="true" />
                Your account asks for a code at every sign-in.
              </p>
              <Button variant="secondary" onClick={() => setMode({ kind: 'regenerate' })}>
                New recovery codes
              </Button>
              <Button variant="secondary" onClick={() => setMode({ kind: 'turn-off' })}>
                Turn off
              </Button>
            </div>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <p className="flex items-center gap-2 text-sm text-slate-700">
                <ShieldOffIcon className="size-4 text-slate-400" aria-hidden="true" />
                Your password alone signs you in.
              </p>
              <Button onClick={() => setMode({ kind: 'setting-up' })}>Set up two-factor sign-in</Button>
            </div>
          ))}
      </div>
    </Card>
  );
}
