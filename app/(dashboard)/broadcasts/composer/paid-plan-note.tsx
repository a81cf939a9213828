import Link from 'next/link';
import { Alert } from '../../../components/alert';

/** Why Schedule and Send now wait: the plan does not send broadcasts. A test copy still goes. */
export function PaidPlanNote({ id, planLabel }: { id: string; planLabel: string }) {
  return (
    <Alert tone="info" title="Sending takes a paid plan">
      <span id={id} data-testid="paid-plan-note">
        The {planLabel} plan does not send broadcasts: write and save this one, send yourself a test copy (that works on every plan), and{' '}
        <Link href="/billing" className="font-medium underline hover:no-underline">
          move up to a paid plan
        </Link>{' '}
        to schedule or send it.
      </span>
    </Alert>
  );
}
