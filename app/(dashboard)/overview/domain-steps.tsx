'use client';

import Link from 'next/link';
import { useId, useState } from 'react';
import { ChevronDownIcon } from 'lucide-react';
import { Button, buttonClasses } from '../../components/button';
import { cx } from '../../components/cx';
import { ErrorAlert } from '../../components/error-alert';
import { Skeleton } from '../../components/skeleton';
import { useCreateGate } from '../create-gate/use-create-gate';
import { CreateGateNote } from '../create-gate/create-gate-note';
import { AddDomainDialog } from '../domains/add-domain-dialog';
import { recordList } from '../domains/check-summary';
import { RecordStatusBadge } from '../domains/status-badges';
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
  const gate = useCreateGate({ procedure: 'domains.create', liveOnly: 'Domains are shared by Live and Test mode: add one in Live.' });
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

/**
 * Step 2: which records to publish and where each stands, short; the records themselves, with
 * their copy buttons, on demand (the full table made the overview very long), or one click at a
 * provider that supports Domain Connect.
 */
export function PublishRecordsStep({ checklist }: { checklist: Checklist }) {
  if (!checklist.domain) return <NeedsDomain />;
  return <DomainRecords domainId={checklist.domain.id} />;
}

function DomainRecords({ domainId }: { domainId: string }) {
  const { query } = useDomain(domainId);
  const [showRecords, setShowRecords] = useState(false);
  const tableId = useId();
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
  const required = domain.records.filter((record) => record.required).map((record) => record.record);
  return (
    <div className="space-y-3" data-testid="setup-records">
      <p className="text-sm text-slate-600">
        Add {required.length} records at the DNS provider of <strong className="font-medium break-all text-slate-800">{domain.name}</strong>:{' '}
        {recordList(required)}. DMARC is recommended.
      </p>
      <ul className="flex flex-wrap gap-2" aria-label="The records and what the last check found" data-testid="setup-record-statuses">
        {domain.records.map((record) => (
          <li key={record.record} className="inline-flex items-center gap-1.5 rounded-md border border-slate-200 py-0.5 pr-0.5 pl-2 text-xs" data-record={record.record}>
            <span className="font-medium text-slate-700">{record.record}</span>
            <RecordStatusBadge status={record.status} />
          </li>
        ))}
      </ul>
      {domain.status !== 'verified' && <DomainConnectPanel domainId={domain.id} />}
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" aria-expanded={showRecords} aria-controls={tableId} onClick={() => setShowRecords((shown) => !shown)}>
          {showRecords ? 'Hide the records' : 'Show the records'}
          <ChevronDownIcon className={cx('size-4 transition-transform', showRecords && 'rotate-180')} aria-hidden="true" />
        </Button>
        <Link href={`/domains/${domain.id}`} className={buttonClasses('ghost', 'sm')}>
          Open the domain page
        </Link>
      </div>
      {showRecords && (
        <div id={tableId} className="space-y-3" data-testid="setup-records-table">
          <DnsHelp domain={domain} />
          <DnsRecordsTable>
            {domain.records.map((record) => (
              <DnsRecordRow key={`${record.record}-${record.name}`} record={record} />
            ))}
          </DnsRecordsTable>
        </div>
      )}
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
