'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';

const FIELDS = ['name', 'first_name', 'last_name'] as const;

/** The wire's value for a field: unchanged is not sent, emptied is `null`. */
const changed = (text: string, stored: string | null) => {
  const next = text.trim() || null;
  return next === stored ? undefined : next;
};

/**
 * The contact's names. The name follows the first and last names while it was only ever made of
 * them (docs/contacts.md); a name typed here is kept as typed.
 */
export function EditNamesDialog({ contact, onClose }: { contact: ContactProfile; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const [firstName, setFirstName] = useState(contact.firstName ?? '');
  const [lastName, setLastName] = useState(contact.lastName ?? '');
  const [name, setName] = useState(contact.name ?? '');
  const update = useMutation(trpc.contacts.update.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const { byField, other } = fieldErrors(update.error, FIELDS);

  const submit = () => {
    const changes = { first_name: changed(firstName, contact.firstName), last_name: changed(lastName, contact.lastName), name: changed(name, contact.name) };
    if (Object.values(changes).every((value) => value === undefined)) return onClose();
    update.mutate({ idOrEmail: contact.id, ...changes });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="edit-names-dialog"
      title="Edit names"
      description={<span className="font-medium break-all text-slate-700">{contact.email}</span>}
      onSubmit={submit}
      submitLabel="Save names"
      pending={update.isPending}
      error={other}
      errorTitle="Could not save the names"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" name="first_name" maxLength={200} autoFocus autoComplete="off" value={firstName} onChange={(event) => setFirstName(event.target.value)} error={byField.first_name} />
        <TextField label="Last name" name="last_name" maxLength={200} autoComplete="off" value={lastName} onChange={(event) => setLastName(event.target.value)} error={byField.last_name} />
      </div>
      <TextField
        label="Name"
        name="name"
        maxLength={200}
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        description="How the contact is named in lists and merge tags. Left as it is, it follows the first and last names unless someone gave it otherwise."
        error={byField.name}
      />
    </FormDialog>
  );
}
