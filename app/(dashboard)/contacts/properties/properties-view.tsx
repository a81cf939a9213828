'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { RetryButton } from '../../../components/retry-button';
import { useTRPC } from '../../../lib/trpc';
import { GatedActions } from '../../create-gate/gated-actions';
import { useCreateGate } from '../../create-gate/use-create-gate';
import { ContactsTabs } from '../contacts-tabs';
import type { ContactProperty } from '../types';
import { CreatePropertyDialog } from './create-property-dialog';
import { DeletePropertyDialog } from './delete-property-dialog';
import { EditFallbackDialog } from './edit-fallback-dialog';
import { PropertiesEmpty } from './properties-empty';
import { PropertiesTable } from './properties-table';
import { PropertyRow } from './property-row';
import { PropertySkeletonRows } from './property-skeleton-rows';

type Open = { dialog: 'create' } | { dialog: 'edit'; property: ContactProperty } | { dialog: 'delete'; property: ContactProperty } | null;

/** The organization's contact properties, in the order defined (the order forms show them in). */
export function PropertiesView() {
  const trpc = useTRPC();
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const list = properties.data?.data;
  const gate = useCreateGate({ procedure: 'contactProperties.create', liveOnly: 'Contact properties are shared by Live and Test mode: define them in Live.' });

  const createButton = (
    <Button onClick={() => setOpen({ dialog: 'create' })} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Create property
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Contact properties"
        description="Custom fields your contacts carry, each of one type, for personalizing broadcasts."
        actions={list && list.length > 0 ? <GatedActions gate={gate}>{createButton}</GatedActions> : undefined}
      />
      <ContactsTabs />

      {properties.isPending && (
        <PropertiesTable busy>
          <PropertySkeletonRows />
        </PropertiesTable>
      )}

      {properties.isError && <ErrorAlert error={properties.error} fallbackTitle="Could not load the contact properties" action={<RetryButton query={properties} />} />}

      {list && list.length === 0 && (
        <PropertiesEmpty
          action={
            <GatedActions gate={gate} align="center">
              {createButton}
            </GatedActions>
          }
        />
      )}

      {list && list.length > 0 && (
        <PropertiesTable>
          {list.map((property) => (
            <PropertyRow key={property.id} property={property} onEdit={() => setOpen({ dialog: 'edit', property })} onDelete={() => setOpen({ dialog: 'delete', property })} />
          ))}
        </PropertiesTable>
      )}

      {open?.dialog === 'create' && <CreatePropertyDialog onClose={close} />}
      {open?.dialog === 'edit' && <EditFallbackDialog property={open.property} onClose={close} />}
      {open?.dialog === 'delete' && <DeletePropertyDialog property={open.property} onClose={close} />}
    </>
  );
}
