'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { GlobeIcon, PlusIcon } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { RetryButton } from '../../components/retry-button';
import { useTRPC } from '../../lib/trpc';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { AddDomainDialog } from './add-domain-dialog';
import { DomainRow } from './domain-row';
import { DomainSkeletonRows } from './domain-skeleton-rows';
import { DomainsTable } from './domains-table';
import { POLL_INTERVAL_MS } from './refetch';
import { SandboxNote } from './sandbox-note';

export function DomainsView() {
  const trpc = useTRPC();
  const domains = useQuery({
    ...trpc.domains.list.queryOptions({}),
    refetchInterval: (query) => (query.state.data?.data.some((domain) => domain.isPolling) ? POLL_INTERVAL_MS : false),
  });
  // `/domains?add=example.com` (a fix-it link elsewhere in the dashboard) opens the dialog with the name filled in.
  const requested = useSearchParams().get('add');
  const [adding, setAdding] = useState(requested !== null);
  const router = useRouter();
  const closeDialog = () => {
    setAdding(false);
    // The name was asked for once: the next "Add domain" starts empty.
    if (requested !== null) router.replace('/domains', { scroll: false });
  };
  // The organization's own domains; the shared sandbox (listed last by the API) is shown apart.
  const own = domains.data?.data.filter((domain) => !domain.sandbox);
  const sandbox = domains.data?.data.find((domain) => domain.sandbox);

  const gate = useCreateGate({ procedure: 'domains.create', liveOnly: 'Domains are shared by Live and Test mode: add them in Live.', cap: { resource: 'domains', noun: 'domain' } });

  const addButton = (
    <Button onClick={() => setAdding(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Add domain
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Domains"
        description="The domains you send from. Publish the DNS records we give you and we verify them, so your mail is signed (DKIM) and bounces come back to us."
        actions={own && own.length > 0 ? <GatedActions gate={gate}>{addButton}</GatedActions> : undefined}
      />

      {domains.isPending && (
        <DomainsTable busy>
          <DomainSkeletonRows />
        </DomainsTable>
      )}

      {domains.isError && <ErrorAlert error={domains.error} fallbackTitle="Could not load your domains" action={<RetryButton query={domains} />} />}

      {own && own.length === 0 && (
        <EmptyState testId="domains-empty" icon={<GlobeIcon className="size-6" />} title="No domains yet" action={<GatedActions gate={gate} align="center">{addButton}</GatedActions>}>
          Add a domain you own to send email from it, such as example.com or mail.example.com. Once its DNS records are verified, mail from it is signed
          with DKIM and passes SPF and DMARC, so it reaches inboxes instead of spam folders.
        </EmptyState>
      )}

      {own && own.length > 0 && (
        <DomainsTable>
          {own.map((domain) => (
            <DomainRow key={domain.id} domain={domain} />
          ))}
        </DomainsTable>
      )}

      {sandbox && <SandboxNote sandbox={sandbox} />}

      <AddDomainDialog open={adding} onClose={closeDialog} initialName={requested ?? undefined} />
    </>
  );
}
