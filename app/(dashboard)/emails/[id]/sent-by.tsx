'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge } from '../../../components/badge';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';
import type { RouterOutputs } from '@/server/routers/types';

type SentBy = RouterOutputs['emails']['sentBy'];

const linkClasses = 'font-medium break-all text-indigo-600 hover:text-indigo-500 hover:underline';

function KeyName({ sentBy }: { sentBy: SentBy }) {
  if (!sentBy.key) return <span className="text-slate-500">a key that no longer exists</span>;
  return (
    <>
      <Link href="/api-keys" className={linkClasses} data-testid="sent-by-key">
        {sentBy.key.name}
      </Link>
      {sentBy.key.revoked && (
        <Badge tone="muted" className="ml-1.5">
          Revoked
        </Badge>
      )}
    </>
  );
}

/** What sent it, then its name: the key (to the API keys page), the broadcast, or the dashboard. */
function Sender({ sentBy }: { sentBy: SentBy }) {
  switch (sentBy.kind) {
    case 'api_key':
      return (
        <>
          <KeyName sentBy={sentBy} />
          <span className="block text-xs text-slate-500">API key</span>
        </>
      );
    case 'smtp':
      return (
        <>
          SMTP relay
          <span className="block text-xs text-slate-500">
            as <KeyName sentBy={sentBy} />
          </span>
        </>
      );
    case 'broadcast':
      return (
        <>
          {sentBy.broadcast ? (
            <Link href={`/broadcasts/${sentBy.broadcast.id}`} className={linkClasses}>
              {sentBy.broadcast.name}
            </Link>
          ) : (
            <span className="text-slate-500">a deleted broadcast</span>
          )}
          <span className="block text-xs text-slate-500">Broadcast</span>
        </>
      );
    case 'dashboard':
      return (
        <>
          Dashboard
          <span className="block text-xs text-slate-500">sent by a person signed in</span>
        </>
      );
  }
}

/** Which API key, channel or broadcast sent the email (docs/emails.md, "Sent by"); read once, not with the polling of the email. */
export function SentByValue({ emailId }: { emailId: string }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.emails.sentBy.queryOptions({ id: emailId }), staleTime: Infinity });
  if (query.isPending) return <Skeleton className="mt-1 h-4 w-28" />;
  if (query.isError) return <span className="text-slate-400">Unknown</span>;
  return (
    <span data-kind={query.data.kind} data-testid="sent-by-value">
      <Sender sentBy={query.data} />
    </span>
  );
}
