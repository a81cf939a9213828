'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect } from 'react';
import { Alert } from '../../components/alert';
import { Button, buttonClasses } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { switchOrganization } from '../../lib/active-organization';
import { authClient } from '../../lib/auth-client';
import { rememberInvitation } from '../../lib/invitation-cookie';
import { useTRPC } from '../../lib/trpc';

const UNUSABLE: Record<string, { title: string; text: string }> = {
  used: { title: 'This invitation was used already', text: 'Each link works once. If you accepted it, sign in to find the organization.' },
  expired: { title: 'This invitation has expired', text: 'Invitation links work for 7 days. Ask the person who invited you to resend it.' },
  revoked: { title: 'This invitation was revoked', text: 'Ask the organization’s owner or an admin for a new one if you still need access.' },
  unknown: { title: 'This link is not valid', text: 'Check that the whole link from the mail was opened, or ask for a new invitation.' },
};

export function InvitationView({ token }: { token: string }) {
  const trpc = useTRPC();
  const invitation = useQuery(trpc.team.describeInvitation.queryOptions({ token }));
  const session = authClient.useSession();
  const accept = useMutation(trpc.team.acceptInvitation.mutationOptions({ onSuccess: ({ organizationId }) => switchOrganization(organizationId) }));
  const valid = invitation.data?.state === 'valid';
  // A person without a session signs in or up first: the sign-up reads this to land them here.
  useEffect(() => {
    if (valid && !session.isPending && !session.data) rememberInvitation(token);
  }, [valid, session.isPending, session.data, token]);

  if (invitation.isPending || session.isPending) {
    return (
      <div className="space-y-3" aria-busy>
        <Skeleton className="h-6 w-2/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-9 w-32" />
      </div>
    );
  }
  if (invitation.isError) return <ErrorAlert error={invitation.error} fallbackTitle="Could not read the invitation" />;
  const described = invitation.data;
  if (described.state !== 'valid') {
    const words = UNUSABLE[described.state]!;
    return (
      <div data-testid="invitation-unusable">
        <h1 className="text-xl font-semibold text-slate-900">{words.title}</h1>
        <p className="mt-2 text-sm text-slate-600">{words.text}</p>
      </div>
    );
  }

  const heading = (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Join {described.organizationName}</h1>
      <p className="mt-2 text-sm text-slate-600">
        You are invited to join <strong>{described.organizationName}</strong> on EU Mail as <strong>{described.role}</strong>, with the address <strong>{described.email}</strong>.
      </p>
    </>
  );

  const user = session.data?.user;
  if (user && user.email.toLowerCase() !== described.email) {
    return (
      <div data-testid="invitation-other-address">
        {heading}
        <Alert className="mt-4">You are signed in as {user.email}. Sign out, then open the link again and sign in with {described.email}.</Alert>
        <Button variant="secondary" className="mt-4" onClick={() => void authClient.signOut().then(() => window.location.reload())}>
          Sign out
        </Button>
      </div>
    );
  }
  if (user) {
    return (
      <div data-testid="invitation-accept">
        {heading}
        {accept.error ? (
          <div className="mt-4">
            <ErrorAlert error={accept.error} fallbackTitle="Could not accept the invitation" />
          </div>
        ) : null}
        <Button className="mt-5 w-full" loading={accept.isPending || accept.isSuccess} onClick={() => accept.mutate({ token })}>
          Join {described.organizationName}
        </Button>
      </div>
    );
  }
  const back = `/invitation/${token}`;
  return (
    <div data-testid="invitation-sign-in">
      {heading}
      <p className="mt-4 text-sm text-slate-600">{described.hasAccount ? 'Sign in with that address to accept.' : 'Create your account with that address: you land in the organization.'}</p>
      <div className="mt-5 flex flex-col gap-2">
        {described.hasAccount ? (
          <Link href={`/sign-in?next=${encodeURIComponent(back)}`} className={buttonClasses('primary')}>
            Sign in to accept
          </Link>
        ) : (
          <Link href={`/sign-up?email=${encodeURIComponent(described.email ?? '')}`} className={buttonClasses('primary')}>
            Create your account
          </Link>
        )}
      </div>
    </div>
  );
}
