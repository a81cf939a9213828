'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { Alert } from '../../components/alert';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { ToggleSwitch } from '../../components/toggle-switch';
import { describeError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';

/**
 * The owner's switch: every member of the organization signs in with a second factor; members
 * without it are held at its set-up at their next visit. Others see the rule, not the switch.
 */
export function TwoFactorRequirement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions({}));
  const change = useMutation(
    trpc.twoFactor.setRequirement.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.twoFactor.status.queryKey() }),
    }),
  );

  return (
    <section aria-labelledby="require-two-factor-heading" data-testid="two-factor-requirement" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="require-two-factor-heading" className="text-base font-semibold text-slate-900">
            Require two-factor sign-in
          </h2>
          <p id="require-two-factor-description" className="mt-1 text-sm text-slate-500">
            Every member signs in with a code from an authenticator app or a recovery code. Members without it are asked to set it up at their next visit and can do nothing else until they have. API keys are not affected.
          </p>
        </div>
        {status.data && (
          <ToggleSwitch
            label="Require two-factor sign-in"
            describedBy="require-two-factor-description"
            checked={change.isPending ? Boolean(change.variables?.required) : status.data.organizationRequires}
            disabled={!status.data.mayChangeRequirement}
            pending={change.isPending}
            onChange={(required) => change.mutate({ required })}
          />
        )}
      </div>
      <div className="mt-3 space-y-3">
        {status.isPending && <Skeleton className="h-4 w-1/2" />}
        {status.isError && <ErrorAlert error={status.error} fallbackTitle="Could not read the requirement" />}
        {status.data && !status.data.mayChangeRequirement && <p className="text-sm text-slate-500">Only the organization’s owner can change this.</p>}
        {status.data?.mayChangeRequirement && !status.data.enabled && !status.data.organizationRequires && (
          <p className="text-sm text-slate-500">
            To require it, first{' '}
            <Link href="/account" className="font-medium text-indigo-600 hover:text-indigo-500">
              set up two-factor sign-in for yourself
            </Link>
            .
          </p>
        )}
        {change.isError && <Alert>{describeError(change.error).message}</Alert>}
      </div>
    </section>
  );
}
