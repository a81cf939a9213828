'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { RetryButton } from '../../components/retry-button';
import { useTRPC } from '../../lib/trpc';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { AudienceRow } from './audience-row';
import { AudienceSkeletonRows } from './audience-skeleton-rows';
import { AudiencesEmpty } from './audiences-empty';
import { AudiencesTable } from './audiences-table';
import { ContactsTotal } from './contacts-total';
import { CreateAudienceDialog } from './create-audience-dialog';
import { DeleteAudienceDialog } from './delete-audience-dialog';
import type { Segment } from './types';

export function AudiencesView() {
  const trpc = useTRPC();
  // As segments: each with its rules and their live count when it is defined by them.
  const audiences = useQuery(trpc.segments.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const list = audiences.data?.data;
  const gate = useCreateGate({ procedure: 'audiences.create', liveOnly: 'Audiences are shared by Live and Test mode: create them in Live.' });

  const createButton = (
    <Button onClick={() => setCreating(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Create audience
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Audiences"
        description={
          <>
            Contacts you send broadcasts to: lists you fill, and segments their rules fill. Each contact keeps its subscription status in each.
            {list && list.length > 0 && (
              <>
                {' '}
                <ContactsTotal />
              </>
            )}
          </>
        }
        actions={list && list.length > 0 ? <GatedActions gate={gate}>{createButton}</GatedActions> : undefined}
      />

      {audiences.isPending && (
        <AudiencesTable busy>
          <AudienceSkeletonRows />
        </AudiencesTable>
      )}

      {audiences.isError && <ErrorAlert error={audiences.error} fallbackTitle="Could not load your audiences" action={<RetryButton query={audiences} />} />}

      {list && list.length === 0 && (
        <AudiencesEmpty
          action={
            <GatedActions gate={gate} align="center">
              {createButton}
            </GatedActions>
          }
        />
      )}

      {list && list.length > 0 && (
        <AudiencesTable>
          {list.map((audience) => (
            <AudienceRow key={audience.id} audience={audience} onDelete={() => setDeleting(audience)} />
          ))}
        </AudiencesTable>
      )}

      {creating && <CreateAudienceDialog onClose={() => setCreating(false)} />}
      {deleting && <DeleteAudienceDialog audience={deleting} open onClose={() => setDeleting(null)} />}
    </>
  );
}
