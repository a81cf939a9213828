'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { PencilIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { EditPropertiesDialog } from './edit-properties-dialog';
import { PropertyValueRow } from './property-value-row';
import { useContactWrite } from './use-contact-write';

/** Every property of the organization with this contact's value, or the fallback a merge tag would use instead. */
export function PropertiesSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const headingId = useId();
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const write = useContactWrite('contacts.update');
  const [editing, setEditing] = useState(false);
  const list = properties.data?.data;

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="contact-properties">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Properties
          </h2>
          <p className="mt-1 text-sm text-slate-500">The contact&apos;s values; a value in grey is the property&apos;s fallback, used while the contact has none.</p>
        </div>
        {write.offered && list && list.length > 0 && (
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={write.disabled}>
            <PencilIcon className="size-4" />
            Edit values
          </Button>
        )}
      </div>

      {properties.isPending && (
        <div className="mt-4 space-y-2" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      )}
      {properties.isError && (
        <div className="mt-4">
          <ErrorAlert error={properties.error} fallbackTitle="Could not load the contact properties" action={<RetryButton query={properties} />} />
        </div>
      )}
      {list?.length === 0 && (
        <p className="mt-4 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500" data-testid="no-properties">
          Your organization has no contact properties yet.{' '}
          <Link href="/contacts/properties" className="font-medium text-indigo-600 hover:underline">
            Define one
          </Link>{' '}
          (a plan, a birthday, a customer id) to give contacts values that broadcasts can use.
        </p>
      )}
      {list && list.length > 0 && (
        <dl className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {list.map((property) => (
            <PropertyValueRow key={property.id} property={property} value={contact.properties[property.key]} />
          ))}
        </dl>
      )}
      {editing && list && <EditPropertiesDialog contact={contact} properties={list} onClose={() => setEditing(false)} />}
    </section>
  );
}
