'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { TextField } from '../../components/field';
import { FormDialog } from '../../components/form-dialog';
import { refetchThenClose } from '../../components/mutation-dialog-props';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import type { Audience } from '../audiences/types';
import { ContactEmailField } from './contact-email-field';
import { SegmentCheckboxes } from './segment-checkboxes';
import { useInvalidateContacts } from './use-invalidate-contacts';

const FIELDS = ['email', 'first_name', 'last_name'] as const;

/**
 * One contact by hand, with its names and the segments it joins. An address the organization
 * already holds is that contact: the names given replace its names, and it joins the segments.
 * Rendered only while open.
 */
export function AddContactDialog({ segments, onClose }: { segments: Audience[]; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const create = useMutation(trpc.contacts.create.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const { byField, other } = fieldErrors(create.error, FIELDS);

  const submit = () =>
    create.mutate({
      email: email.trim(),
      first_name: firstName.trim() || undefined,
      last_name: lastName.trim() || undefined,
      segments: chosen.size > 0 ? [...chosen].map((id) => ({ id })) : undefined,
    });

  return (
    <FormDialog
      onClose={onClose}
      testId="add-contact-dialog"
      title="Add contact"
      description="If the address is already a contact, that contact gets the names given and joins the segments ticked. A contact who unsubscribed from everything stays unsubscribed."
      onSubmit={submit}
      submitLabel="Add contact"
      submitDisabled={!email.trim()}
      pending={create.isPending}
      error={other}
      errorTitle="Could not add the contact"
    >
      <ContactEmailField value={email} onChange={setEmail} description="The address alone; the names go below." error={byField.email} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" name="first_name" hint="Optional" maxLength={200} autoComplete="off" value={firstName} onChange={(event) => setFirstName(event.target.value)} error={byField.first_name} />
        <TextField label="Last name" name="last_name" hint="Optional" maxLength={200} autoComplete="off" value={lastName} onChange={(event) => setLastName(event.target.value)} error={byField.last_name} />
      </div>
      <SegmentCheckboxes segments={segments} chosen={chosen} onChange={setChosen} />
    </FormDialog>
  );
}
