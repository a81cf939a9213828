'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { CheckboxField, TextField } from '../../../components/field';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import { useInvalidateAudiences } from '../use-invalidate-audiences';

const FIELDS = ['email', 'name'] as const;

/** One contact by hand; an address already in the audience is updated rather than added twice. */
export function AddContactDialog({ audienceId, open, onClose }: { audienceId: string; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [subscribed, setSubscribed] = useState(true);
  const create = useMutation(
    trpc.audiences.createContact.mutationOptions({
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
    setName('');
    setSubscribed(true);
    create.reset();
    onClose();
  }

  const close = () => {
    if (!create.isPending) finish();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ id: audienceId, email: email.trim(), name: name.trim() || undefined, subscribed });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="add-contact-dialog"
      title="Add contact"
      description="If the address is already in this audience, that contact is updated instead. A contact who unsubscribed stays unsubscribed: only editing the contact subscribes them again."
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
          description="The address alone; the name goes below."
          error={byField.email}
        />
        <TextField label="Name" name="name" hint="Optional" maxLength={200} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={byField.name} />
        <CheckboxField
          label="Subscribed"
          checked={subscribed}
          onChange={(event) => setSubscribed(event.target.checked)}
          description="Broadcasts to this audience are sent to subscribed contacts only. Add people who agreed to receive them."
        />
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
