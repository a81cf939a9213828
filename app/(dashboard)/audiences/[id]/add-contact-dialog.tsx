'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField, TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import { ContactEmailField } from '../../contacts/contact-email-field';
import { useInvalidateAudiences } from '../use-invalidate-audiences';

const FIELDS = ['email', 'name'] as const;

/** One contact by hand; an address already in the audience is updated rather than added twice. Rendered only while open. */
export function AddContactDialog({ audienceId, onClose }: { audienceId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [subscribed, setSubscribed] = useState(true);
  const create = useMutation(trpc.audiences.createContact.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const { byField, other } = fieldErrors(create.error, FIELDS);

  return (
    <FormDialog
      onClose={onClose}
      testId="add-contact-dialog"
      title="Add contact"
      description="If the address is already in this audience, that contact is updated instead. A contact who unsubscribed stays unsubscribed: only editing the contact subscribes them again."
      onSubmit={() => create.mutate({ id: audienceId, email: email.trim(), name: name.trim() || undefined, subscribed })}
      submitLabel="Add contact"
      submitDisabled={!email.trim()}
      pending={create.isPending}
      error={other}
      errorTitle="Could not add the contact"
    >
      <ContactEmailField value={email} onChange={setEmail} description="The address alone; the name goes below." error={byField.email} />
      <TextField label="Name" name="name" hint="Optional" maxLength={200} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={byField.name} />
      <CheckboxField
        label="Subscribed"
        checked={subscribed}
        onChange={(event) => setSubscribed(event.target.checked)}
        description="Broadcasts to this audience are sent to subscribed contacts only. Add people who agreed to receive them."
      />
    </FormDialog>
  );
}
