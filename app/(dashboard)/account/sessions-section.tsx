'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { RelativeTime } from '../../components/relative-time';
import { SkeletonRows } from '../../components/skeleton-rows';
import { formatDateTime } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { AccountSection } from './account-section';

interface Session {
  id: string;
  device: string;
  userAgent: string | null;
  ipAddress: string | null;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
}

const COLUMNS = ['Device', 'Address', 'Signed in', 'Last seen', { srOnly: 'Actions' }] as const;

function useInvalidateSessions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
}

function SignOutButton({ session }: { session: Session }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateSessions();
  const signOut = useMutation(trpc.account.signOutSession.mutationOptions({ onSettled: () => invalidate() }));
  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="secondary" size="sm" loading={signOut.isPending} onClick={() => signOut.mutate({ id: session.id })} aria-label={`Sign out ${session.device}`}>
        Sign out
      </Button>
      {signOut.error && <span className="text-xs text-red-700">Could not sign it out</span>}
    </div>
  );
}

function SessionRow({ session }: { session: Session }) {
  return (
    <tr data-testid="session-row" data-current={session.current || undefined}>
      <td className="py-3 pr-4 pl-5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900" title={session.userAgent ?? undefined}>
            {session.device}
          </span>
          {session.current && <Badge tone="green">This device</Badge>}
        </div>
      </td>
      <td className="px-4 py-3 font-mono text-xs whitespace-nowrap text-slate-600">{session.ipAddress ?? 'Unknown'}</td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDateTime(session.signedInAt)}</td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-600">{session.current ? 'Now' : <RelativeTime iso={session.lastSeenAt} />}</td>
      <td className="py-3 pr-5 pl-4 text-right">{!session.current && <SignOutButton session={session} />}</td>
    </tr>
  );
}

function SignOutOthersButton({ others }: { others: number }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateSessions();
  const [confirming, setConfirming] = useState(false);
  const signOut = useMutation(
    trpc.account.signOutOtherSessions.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );
  const close = () => {
    if (signOut.isPending) return;
    setConfirming(false);
    signOut.reset();
  };
  return (
    <>
      <Button variant="secondary" disabled={others === 0} onClick={() => setConfirming(true)}>
        Sign out all other sessions
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={close}
        title="Sign out all other sessions"
        testId="sign-out-others-dialog"
        description={`Sign out ${others === 1 ? 'the other session' : `the ${others} other sessions`}? This device stays signed in.`}
        confirmLabel="Sign them out"
        onConfirm={() => signOut.mutate({})}
        pending={signOut.isPending}
        error={signOut.error}
        errorTitle="Could not sign out the other sessions"
      >
        <p className="text-sm text-slate-600">Anyone using them, you or someone else, has to sign in again with your password.</p>
      </ConfirmDialog>
    </>
  );
}

/** Where the person is signed in: device, address, when; sign out one, or every other one. */
export function SessionsSection() {
  const trpc = useTRPC();
  const query = useQuery(trpc.account.sessions.queryOptions());
  const sessions = query.data?.data;
  const others = sessions?.filter((session) => !session.current).length ?? 0;

  return (
    <AccountSection
      id="sessions"
      title="Sessions"
      description="Where you are signed in to this dashboard. A session you do not recognise? Sign it out, then change your password."
      action={sessions && <SignOutOthersButton others={others} />}
    >
      {query.isError ? (
        <ErrorAlert
          error={query.error}
          fallbackTitle="Could not load your sessions"
          action={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
              Try again
            </Button>
          }
        />
      ) : (
        <DataTable label="Sessions" columns={[...COLUMNS]} busy={query.isPending}>
          {sessions ? sessions.map((session) => <SessionRow key={session.id} session={session} />) : <SkeletonRows cells={['h-4 w-40', 'h-4 w-24', 'h-4 w-32', 'h-4 w-20', 'h-8 w-20']} count={2} testId="session-skeleton" />}
        </DataTable>
      )}
      {sessions && others === 0 && <p className="mt-3 text-sm text-slate-500">You are signed in on this device only.</p>}
    </AccountSection>
  );
}
