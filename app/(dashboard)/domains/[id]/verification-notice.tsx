import { Alert } from '../../../components/alert';
import type { Domain } from '../types';

/** What the last check found, when the domain is not (or no longer) verified. */
export function VerificationNotice({ domain }: { domain: Domain }) {
  const reason = domain.failureReason;
  if (domain.status === 'verified') return null;

  if (domain.status === 'failed') {
    return (
      <Alert title="Verification failed">
        <span data-testid="failure-reason">{reason ?? 'The records could not be verified.'}</span> Fix the records below, then click Verify now to check again.
      </Alert>
    );
  }

  if (domain.status === 'temporary_failure') {
    return (
      <Alert tone="warning" title="We could not confirm your records">
        <span data-testid="failure-reason">{reason ?? 'The last DNS check did not succeed.'}</span> We keep checking automatically.
      </Alert>
    );
  }

  if (!reason) return null;
  return (
    <Alert tone="info" title="Not verified yet">
      <span data-testid="failure-reason">Last check: {reason}.</span> DNS changes usually show up within minutes, sometimes hours; we keep checking
      automatically for 72 hours.
    </Alert>
  );
}
