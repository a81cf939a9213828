'use client';

import { useState } from 'react';
import type { ComposerValues } from './composer-values';
import { useLivePreview } from './use-live-preview';
import { useSampleContacts } from './use-sample-contacts';

/**
 * The preview of what is being written and whom it is shown as: the contact chosen, else the
 * audience's newest subscribed contact, else sample values. A choice from another audience is
 * dropped when the audience changes.
 */
export function useComposerPreview(values: ComposerValues) {
  const samples = useSampleContacts(values.audienceId);
  const contacts = values.audienceId ? (samples.data?.data ?? []) : [];
  const [chosen, setChosen] = useState<string | null>(null);
  const contactId = chosen !== null && (chosen === '' || contacts.some((contact) => contact.id === chosen)) ? chosen : (contacts[0]?.id ?? '');
  const { query, missing, typing } = useLivePreview(values, contactId);
  // The count belongs to the audience chosen now: a rendering for another one says nothing of it.
  const subscribed = query.data && !query.isPlaceholderData && values.audienceId ? query.data.recipients : null;
  return { contacts, contactsLoading: samples.isLoading, contactId, setContactId: setChosen, query, missing, typing, subscribed };
}

export type ComposerPreview = ReturnType<typeof useComposerPreview>;
