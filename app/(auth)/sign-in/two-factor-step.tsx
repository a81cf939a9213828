'use client';

import { useState } from 'react';
import { TextField } from '../../components/field';
import { authClient } from '../../lib/auth-client';
import { authErrorMessage } from '../../lib/auth-errors';
import { AuthForm } from '../auth-form';

/** better-auth's codes for a challenge that is over (expired, or too many tries): only a new sign-in helps. */
const CHALLENGE_OVER = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE']);

/**
 * The second step of signing in: a code from the authenticator app, or one of the recovery codes
 * (each works once). A challenge lasts 10 minutes and allows 5 tries; then the password again.
 */
export function TwoFactorStep({ onStartOver }: { onStartOver: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const startOver = (
    <button type="button" className="font-medium text-indigo-600 hover:text-indigo-500" onClick={onStartOver}>
      Sign in again
    </button>
  );
  return (
    <AuthForm
      key={recovery ? 'recovery' : 'totp'}
      title="Two-factor sign-in"
      subtitle={recovery ? 'Enter one of your recovery codes. Each code works once.' : 'Enter the 6-digit code from your authenticator app.'}
      submitLabel="Verify"
      onSubmit={async (form) => {
        const code = String(form.get('code')).trim();
        const { error } = recovery ? await authClient.twoFactor.verifyBackupCode({ code }) : await authClient.twoFactor.verifyTotp({ code: code.replace(/\s+/g, '') });
        if (!error) return null;
        if (error.code && CHALLENGE_OVER.has(error.code)) return 'This sign-in has expired or had too many wrong codes. Sign in again with your password.';
        return authErrorMessage(error, 'That code did not match');
      }}
      footer={
        <>
          <button type="button" className="font-medium text-indigo-600 hover:text-indigo-500" onClick={() => setRecovery(!recovery)}>
            {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </button>
          {' · '}
          {startOver}
        </>
      }
    >
      {recovery ? (
        <TextField label="Recovery code" name="code" autoComplete="off" spellCheck={false} required autoFocus />
      ) : (
        <TextField label="Authentication code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} required autoFocus />
      )}
    </AuthForm>
  );
}
