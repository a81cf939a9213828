'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { HourglassIcon } from 'lucide-react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Usage } from './types';
import { useInvalidateBilling } from './use-usage';

/**
 * The upgrade asked for and waiting for the operator: the plan has not changed, and the customer
 * may take the request back (`readOnlyReason`: why they may not now, e.g. test mode).
 */
export function PlanRequestBanner({ usage, readOnlyReason }: { usage: Usage; readOnlyReason: string | null }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateBilling();
  const request = useQuery(trpc.organization.planRequest.queryOptions({}));
  const [confirming, setConfirming] = useState(false);
  const withdraw = useMutation(
    trpc.organization.withdrawPlanRequest.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await invalidate();
      },
    }),
  );
  const open = request.data;
  if (!open) return null;
  return (
    <>
      <Alert
        tone="info"
        icon={<HourglassIcon className="mt-0.5 size-4 shrink-0" />}
        title={`Upgrade to ${open.label} requested`}
        action={
          <Button variant="secondary" size="sm" disabled={readOnlyReason !== null} onClick={() => setConfirming(true)}>
            Withdraw request
          </Button>
        }
      >
        <span data-testid="plan-request" data-plan={open.plan}>
          Asked for by {open.requestedBy || 'a member'} on {formatDateTime(open.requestedAt)}. The operator approves upgrades and arranges payment; until then{' '}
          {usage.plan.label} and its limits stay in force.
        </span>
      </Alert>
      {confirming && (
        <ConfirmDialog
          title="Withdraw the upgrade request?"
          testId="withdraw-plan-request-dialog"
          description={`The request to move to ${open.label} is dropped; you stay on ${usage.plan.label}.`}
          onClose={() => setConfirming(false)}
          confirmLabel="Withdraw request"
          confirmVariant="primary"
          onConfirm={() => withdraw.mutate({})}
          pending={withdraw.isPending}
          error={withdraw.error}
          errorTitle="Could not withdraw the request"
        />
      )}
    </>
  );
}
