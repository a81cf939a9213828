'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Alert } from '../components/alert';
import { formatDate } from '../lib/format';
import { useTRPC } from '../lib/trpc';

/** On every dashboard page while the organization waits to be erased: what has stopped, when it goes, where to cancel. */
export function DeletionBanner() {
  const trpc = useTRPC();
  const organization = useQuery(trpc.organization.current.queryOptions({}));
  const deletion = organization.data?.deletion;
  if (!deletion) return null;
  return (
    <Alert
      className="mb-6"
      title={`${organization.data!.name} is being deleted`}
      action={
        <Link href="/settings#delete-organization-heading" className="text-sm font-semibold text-red-800 underline hover:text-red-900">
          {organization.data!.role === 'owner' ? 'Cancel deletion' : 'Settings'}
        </Link>
      }
    >
      <p data-testid="deletion-banner">
        API keys are refused and nothing is sent. Everything is erased on {formatDate(deletion.eraseAfter)}
        {organization.data!.role === 'owner' ? ' unless you cancel.' : ' unless the owner cancels.'}
      </p>
    </Alert>
  );
}
