'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTRPC } from '../../../lib/trpc';
import type { PreviewInput } from '../types';
import type { ComposerValues } from './composer-values';

/** How long the fields must stay unchanged before the preview is rendered again. */
const DEBOUNCE_MS = 400;

/** The composer's content as the preview procedure takes it, or why there is nothing to render yet. */
function previewInput(values: ComposerValues, contactId: string): { input: PreviewInput } | { missing: string } {
  const common = {
    audience_id: values.audienceId || undefined,
    // The recipients counted are those of the topic too, as sending will count them.
    topic_id: values.topicId || undefined,
    require_confirmed_consent: values.confirmedOnly || undefined,
    contact_id: contactId || undefined,
    preview_text: values.previewText.trim() || undefined,
  };
  if (values.source === 'template') {
    if (!values.templateId) return { missing: 'Choose a template to see the broadcast as a contact will get it.' };
    return { input: { ...common, template_id: values.templateId, subject: values.subject || undefined } };
  }
  if (!values.subject.trim() || (!values.html.trim() && !values.text.trim())) return { missing: 'Write a subject and a body to see the broadcast as a contact will get it.' };
  return { input: { ...common, subject: values.subject, html: values.html || undefined, text: values.text || undefined } };
}

/**
 * What is being written, rendered by the server for one contact (Liquid lives there), once typing
 * stops. Sent as a POST: the bodies may be larger than a URL. The last rendering stays, dimmed,
 * while the next one comes.
 */
export function useLivePreview(values: ComposerValues, contactId: string) {
  const trpc = useTRPC();
  // Each debounced on its own: an object made here would be new on every render and never settle.
  const settledValues = useDebouncedValue(values, DEBOUNCE_MS);
  const settledContact = useDebouncedValue(contactId, DEBOUNCE_MS);
  const request = previewInput(settledValues, settledContact);
  const input = 'input' in request ? request.input : {};
  const query = useQuery({
    ...trpc.broadcasts.preview.queryOptions(input, { trpc: { context: { postQuery: true } } }),
    enabled: 'input' in request,
    placeholderData: keepPreviousData,
    // A Liquid mistake is the person's to fix, not the network's: no retries.
    retry: false,
  });
  const typing = settledValues !== values || settledContact !== contactId;
  return { query, missing: 'missing' in request ? request.missing : null, typing };
}
