'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { useCreateGate } from '../create-gate/use-create-gate';
import { CreateGateNote } from '../create-gate/create-gate-note';
import { AddDomainDialog } from '../domains/add-domain-dialog';
import { DnsHelp } from '../domains/[id]/dns-help';
import { DnsRecordRow } from '../domains/[id]/dns-record-row';
import { DnsRecordsTable } from '../domains/[id]/dns-records-table';
import { DomainConnectPanel } from '../domains/[id]/domain-connect-panel';
import { useDomain } from '../domains/[id]/use-domain';
import { VerificationNotice } from '../domains/[id]/verification-notice';
import { VerifyButton } from '../domains/[id]/verify-button';
import type { Checklist } from './types';
import { useRefreshChecklist } from './use-overview';

const linkClass = 'font-medium text-indigo-600 hover:text-indigo-500';

/** Step 1: the domain to send from, added here; its records show in the next step. */
export function AddDomainStep({ checklist }: { checklist: Checklist }) {
  const [adding, setAdding] = useState(false);
  const refresh = useRefreshChecklist();
  const gate = useCreateGate({ liveOnly: 'Domains are shared by Live and Test mode: add one in Live.' });
  if (checklist.domain) {
    return (
      <p className="text-sm text-slate-600">
        <Link href={`/domains/${checklist.domain.id}`} className={linkClass}>
          {checklist.domain.name}
        </Link>{' '}
        is the domain you send from. Add more on the <Link href="/domains" className={linkClass}>Domains</Link> page.
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        A domain you control the DNS of, such as example.com, or a subdomain such as mail.example.com. Your email is signed for it (DKIM) and bounces come back
        to it.
      </p>
      <Button onClick={() => setAdding(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
        Add domain
      </Button>
      <CreateGateNote gate={gate} />
      <AddDomainDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={() => {
          setAdding(false);
          void refresh();
        }}
      />
    </div>
  );
}

function NeedsDomain() {
  return <p className="text-sm text-slate-500">Add a domain first (step 1).</p>;
}

/** Step 2: the records to publish, with copy buttons, or one click at a provider that supports Domain Connect. */
export function PublishRecordsStep({ checklist }: { checklist: Checklist }) {
  if (!checklist.domain) return <NeedsDomain />;
  return <DomainRecords domainId={checklist.domain.id} />;
}

function DomainRecords({ domainId }: { domainId: string }) {
  const { query } = useDomain(domainId);
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  if (query.isError) {
    return (
      <ErrorAlert
        error={query.error}
        fallbackTitle="Could not load the records"
        action={
          <Button variant="secondary" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
            Try again
          </Button>
        }
      />
    );
  }
  const domain = query.data;
  return (
    <div className="space-y-3" data-testid="setup-records">
      <DnsHelp domain={domain} />
      {domain.status !== 'verified' && <DomainConnectPanel domainId={domain.id} />}
      <DnsRecordsTable>
        {domain.records.map((record) => (
          <DnsRecordRow key={`${record.record}-${record.name}`} record={record} />
        ))}
      </DnsRecordsTable>
    </div>
  );
}

/** Step 3: what the last check found, and a check on demand; the service keeps checking by itself. */
export function VerifyStep({ checklist }: { checklist: Checklist }) {
  if (!checklist.domain) return <NeedsDomain />;
  if (checklist.steps.verified) {
    return (
      <p className="text-sm text-slate-600">
        You can send from any address at <strong className="font-medium text-slate-800">{checklist.domain.name}</strong>.
      </p>
    );
  }
  return <Verification domainId={checklist.domain.id} />;
}

function Verification({ domainId }: { domainId: string }) {
  const { query, watch } = useDomain(domainId);
  const refresh = useRefreshChecklist();
  return (
    <div className="space-y-3">
      {query.data && <VerificationNotice domain={query.data} />}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <p className="text-sm text-slate-600">
          Once the records are published we check your DNS automatically, for up to 72 hours. DNS changes usually show within minutes.
        </p>
        <VerifyButton
          domainId={domainId}
          onStarted={() => {
            watch();
            void refresh();
          }}
        />
      </div>
    </div>
  );
}
