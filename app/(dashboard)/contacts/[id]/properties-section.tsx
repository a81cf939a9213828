'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { PencilIcon } from 'lucide-react';
import { CardSection } from '../../../components/card-section';
import { Button } from '../../../components/button';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { SectionEmpty, SectionLoadState } from './section-states';
import { EditPropertiesDialog } from './edit-properties-dialog';
import { PropertyValueRow } from './property-value-row';
import { useContactWrite } from './use-contact-write';

/** Every property of the organization with this contact's value, or the fallback a merge tag would use instead. */
export function PropertiesSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const write = useContactWrite('contacts.update');
  const [editing, setEditing] = useState(false);
  const list = properties.data?.data;

  return (
    <CardSection
      testId="contact-properties"
      title="Properties"
      description="The contact's values; a value in grey is the property's fallback, used while the contact has none."
      action={
        write.offered &&
        list &&
        list.length > 0 && (
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={write.disabled}>
            <PencilIcon className="size-4" />
            Edit values
          </Button>
        )
      }
    >
      <SectionLoadState query={properties} errorTitle="Could not load the contact properties" />
      {list?.length === 0 && (
        <SectionEmpty testId="no-properties">
          Your organization has no contact properties yet.{' '}
          <Link href="/contacts/properties" className="font-medium text-indigo-600 hover:underline">
            Define one
          </Link>{' '}
          (a plan, a birthday, a customer id) to give contacts values that broadcasts can use.
        </SectionEmpty>
      )}
      {list && list.length > 0 && (
        <dl className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {list.map((property) => (
            <PropertyValueRow key={property.id} property={property} value={contact.properties[property.key]} />
          ))}
        </dl>
      )}
      {editing && list && <EditPropertiesDialog contact={contact} properties={list} onClose={() => setEditing(false)} />}
    </CardSection>
  );
}
