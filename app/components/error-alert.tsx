import Link from 'next/link';
import type { ReactNode } from 'react';
import { DASHBOARD_TEST_MODE_REFUSAL } from '@/server/vocabulary/test-mode';
import { Alert } from './alert';
import { SwitchToLiveButton } from './switch-to-live-button';
import { errorFixOf } from '../lib/error-fixes';
import { describeError } from '../lib/errors';

const TITLES: Record<string, string> = {
  PLAN_LIMIT_EXCEEDED: 'Plan limit reached',
  RATE_LIMITED: 'Too many requests',
  UNAUTHORIZED: 'Your session has ended',
  FORBIDDEN: 'Not allowed',
  NOT_FOUND: 'Not found',
  VALIDATION_ERROR: 'Check the form',
};

/** A failed request, in the server's own words. */
export function ErrorAlert({ error, fallbackTitle = 'Something went wrong', action }: { error: unknown; fallbackTitle?: string; action?: ReactNode }) {
  const { code, message } = describeError(error);
  if (code === 'UNAUTHORIZED') {
    // The dashboard authenticates with the session cookie; the API's wording is about keys.
    return (
      <Alert title={TITLES.UNAUTHORIZED}>
        <span data-testid="error-message" data-error-code={code}>
          Please{' '}
          <Link href="/sign-in" className="font-medium underline">
            sign in again
          </Link>
          .
        </span>
      </Alert>
    );
  }
  // Refused by the test mode of the dashboard, not by a key: the switch is offered where it stopped.
  const testMode = code === 'FORBIDDEN' && message === DASHBOARD_TEST_MODE_REFUSAL;
  const fix = errorFixOf(code);
  return (
    <Alert title={testMode ? 'Test mode' : (code && TITLES[code]) || fallbackTitle} action={action ?? (testMode ? <SwitchToLiveButton /> : undefined)}>
      <span data-testid="error-message" data-error-code={code ?? undefined}>
        {message}
      </span>
      {fix && (
        <Link href={fix.href} className="mt-1 block w-fit font-medium underline" data-testid="error-fix">
          {fix.label}
        </Link>
      )}
    </Alert>
  );
}
