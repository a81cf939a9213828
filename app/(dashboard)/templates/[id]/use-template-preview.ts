'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTRPC } from '../../../lib/trpc';
import { readVariables } from './variables-json';

/** How long the variables must stay unchanged before the preview is rendered again. */
const DEBOUNCE_MS = 400;

/**
 * The saved template rendered with the variables typed, once typing stops. JSON that does not
 * parse is not sent: the last rendering stays, and the parse error is returned instead.
 */
export function useTemplatePreview(id: string, variablesText: string) {
  const trpc = useTRPC();
  const settled = useDebouncedValue(variablesText, DEBOUNCE_MS);
  const variables = readVariables(settled);
  const query = useQuery({
    ...trpc.templates.preview.queryOptions({ id, variables: variables.ok ? variables.json : undefined }),
    enabled: variables.ok,
    placeholderData: keepPreviousData,
  });
  return { query, jsonError: variables.ok ? null : variables.error, typing: settled !== variablesText };
}
