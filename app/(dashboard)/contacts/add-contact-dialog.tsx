'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import type { Audience } from '../audiences/types';
import { SegmentCheckboxes } from './segment-checkboxes';
import { useInvalidateContacts } from './use-invalidate-contacts';

const FIELDS = ['email', 'first_name', 'last_name'] as const;

/**
 * One contact by hand, with its names and the segments it joins. An address the organization
 * already holds is that contact: the names given replace its names, and it joins the segments.
 */
export function AddContactDialog({ segments, open, onClose }: { segments: Audience[]; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const create = useMutation(
    trpc.contacts.create.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        finish();
      },
    }),
  );
  const { byField, other } = fieldErrors(create.error, FIELDS);

  /** Empty again for the next contact, and closed. */
  function finish() {
    setEmail('');
    setFirstName('');
    setLastName('');
    setChosen(new Set());
    create.reset();
    onClose();
  }

  const close = () => {
    if (!create.isPending) finish();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      email: email.trim(),
      first_name: firstName.trim() || undefined,
      last_name: lastName.trim() || undefined,
      segments: chosen.size > 0 ? [...chosen].map((id) => ({ id })) : undefined,
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="add-contact-dialog"
      title="Add contact"
      description="If the address is already a contact, that contact gets the names given and joins the segments ticked. A contact who unsubscribed from everything stays unsubscribed."
    >
      <form onSubmit={submit} className="space-y-5" noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          inputMode="email"
          placeholder="ada@example.com"
          required
          maxLength={320}
          autoFocus
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          description="The address alone; the names go below."
          error={byField.email}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" name="first_name" hint="Optional" maxLength={200} autoComplete="off" value={firstName} onChange={(event) => setFirstName(event.target.value)} error={byField.first_name} />
          <TextField label="Last name" name="last_name" hint="Optional" maxLength={200} autoComplete="off" value={lastName} onChange={(event) => setLastName(event.target.value)} error={byField.last_name} />
        </div>
        <SegmentCheckboxes segments={segments} chosen={chosen} onChange={setChosen} />
        {other ? <ErrorAlert error={other} fallbackTitle="Could not add the contact" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!email.trim()}>
            Add contact
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
