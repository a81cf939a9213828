'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/alert';
import { CheckboxField, TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { Contact } from '../types';
import { useInvalidateAudiences } from '../use-invalidate-audiences';

const FIELDS = ['name'] as const;

/**
 * A contact's name and subscription; the address is the contact (a new address is a new contact).
 * Only what changed is sent. Subscribing someone again is the one change an import never makes,
 * so it comes with a word about consent.
 */
export function EditContactDialog({ audienceId, contact, onClose }: { audienceId: string; contact: Contact; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const [name, setName] = useState(contact.name ?? '');
  const [subscribed, setSubscribed] = useState(contact.subscribed);
  const update = useMutation(trpc.audiences.updateContact.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const { byField, other } = fieldErrors(update.error, FIELDS);
  const resubscribing = !contact.subscribed && subscribed;

  const submit = () => {
    const nextName = name.trim() || null;
    const changes = {
      name: nextName === contact.name ? undefined : nextName,
      subscribed: subscribed === contact.subscribed ? undefined : subscribed,
    };
    if (changes.name === undefined && changes.subscribed === undefined) return onClose();
    update.mutate({ id: audienceId, contactId: contact.id, ...changes });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="edit-contact-dialog"
      title="Edit contact"
      description={<span className="font-medium break-all text-slate-700">{contact.email}</span>}
      onSubmit={submit}
      submitLabel={resubscribing ? 'Save and subscribe again' : 'Save changes'}
      pending={update.isPending}
      error={other}
      errorTitle="Could not save the contact"
    >
      <TextField
        label="Name"
        name="name"
        hint="Optional"
        maxLength={200}
        autoFocus
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
        description="Leave it empty to remove the name."
        error={byField.name}
      />
      <CheckboxField
        label="Subscribed"
        checked={subscribed}
        onChange={(event) => setSubscribed(event.target.checked)}
        description={contact.subscribed ? 'Untick to stop sending this person broadcasts to this audience.' : 'This person is unsubscribed and is not sent broadcasts to this audience.'}
      />
      {resubscribing && (
        <Alert tone="warning" title="Only with their consent">
          <span data-testid="resubscribe-warning">
            Subscribe this person again only if they asked you to, for example by signing up again. Sending broadcasts to someone who unsubscribed
            breaks their choice and privacy law (GDPR, ePrivacy), and complaints hurt the delivery of all your email.
          </span>
        </Alert>
      )}
    </FormDialog>
  );
}
