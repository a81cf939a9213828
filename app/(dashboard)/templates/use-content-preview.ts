'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { fieldErrors } from '../../lib/field-errors';
import { useTRPC } from '../../lib/trpc';
import { TEMPLATE_FIELDS, type TemplateValues } from './template-values';
import type { RenderedTemplate } from './types';
import { readVariables } from './variables-json';

/** How long the fields and the variables must stay unchanged before the preview is rendered again. */
const DEBOUNCE_MS = 400;

/**
 * The editor's content as it stands, saved or not, rendered by the server (Liquid lives there)
 * with the sample variables, once typing stops. Sent as a POST: the bodies may be larger than a
 * URL. JSON that does not parse is not sent: the last rendering stays and the parse error is
 * returned instead; so is what is missing before there is anything to render.
 */
export function useContentPreview(values: TemplateValues, variablesText: string) {
  const trpc = useTRPC();
  // Each debounced on its own: an object made here would be new on every render and never settle.
  const settledValues = useDebouncedValue(values, DEBOUNCE_MS);
  const settledVariables = useDebouncedValue(variablesText, DEBOUNCE_MS);
  const variables = readVariables(settledVariables);
  const hasBody = settledValues.html !== '' || settledValues.text !== '';
  const query = useQuery({
    ...trpc.templates.previewContent.queryOptions(
      {
        subject: settledValues.subject,
        html: settledValues.html === '' ? undefined : settledValues.html,
        text: settledValues.text === '' ? undefined : settledValues.text,
        variables: variables.ok ? variables.json : undefined,
      },
      { trpc: { context: { postQuery: true } } },
    ),
    enabled: variables.ok && hasBody,
    placeholderData: keepPreviousData,
    // A Liquid mistake is the person's to fix, not the network's: no retries.
    retry: false,
  });
  // The last rendering outlives a refused one (a Liquid mistake typed): shown dimmed until fixed.
  const [last, setLast] = useState<RenderedTemplate | undefined>(query.data);
  if (query.data && query.data !== last) setLast(query.data);
  const { byField } = fieldErrors(query.error, TEMPLATE_FIELDS);
  return {
    query,
    rendered: query.data ?? last,
    /** Not what the fields and variables hold now: a newer rendering is on its way, or was refused. */
    stale: query.isPlaceholderData || !query.data,
    /** The preview's refusal when it names a field of the form (`html: line 2: …`): the form shows it under that field. */
    contentError: Object.keys(byField).length > 0 ? query.error : null,
    jsonError: variables.ok ? null : variables.error,
    missing: hasBody ? null : 'Write an HTML or a text body to see it rendered.',
    typing: settledValues !== values || settledVariables !== variablesText,
  };
}

export type ContentPreview = ReturnType<typeof useContentPreview>;
