'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { SelectField } from '../../../components/field';
import { useTRPC } from '../../../lib/trpc';
import type { Audience } from '../../audiences/types';
import type { ContactProfile } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';
import { useContactWrite } from './use-contact-write';

/** Puts the contact in one more segment (a list: a rule segment's members are its rules'), subscribed there. */
export function AddToSegmentForm({ contact, segments }: { contact: ContactProfile; segments: Audience[] }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const write = useContactWrite('contacts.addSegment');
  const [segmentId, setSegmentId] = useState('');
  const add = useMutation(
    trpc.contacts.addSegment.mutationOptions({
      onSuccess: async () => {
        setSegmentId('');
        await invalidate();
      },
    }),
  );
  if (!write.offered) return null;
  if (segments.length === 0) return <p className="text-sm text-slate-500">The contact is in every segment it can be added to.</p>;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (segmentId) add.mutate({ idOrEmail: contact.id, segmentId });
  };

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="add-to-segment">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <SelectField label="Add to a segment" name="segment" className="w-full sm:w-72" value={segmentId} onChange={(event) => setSegmentId(event.target.value)} disabled={write.disabled}>
          <option value="">Choose a segment</option>
          {segments.map((segment) => (
            <option key={segment.id} value={segment.id}>
              {segment.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="secondary" loading={add.isPending} disabled={!segmentId || write.disabled}>
          <PlusIcon className="size-4" />
          Add to segment
        </Button>
      </div>
      {add.error ? <ErrorAlert error={add.error} fallbackTitle="Could not add the contact to the segment" /> : null}
    </form>
  );
}
