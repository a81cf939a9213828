'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '../../../../lib/trpc';
import { useInvalidateAudiences } from '../../use-invalidate-audiences';
import type { ColumnMapping } from './contact-rows';
import { isFinished, startImport } from './import-job';

/** How often a running import is asked how far it is. */
const POLL_MS = 1_000;

export type ImportState = { phase: 'idle' } | { phase: 'uploading' } | { phase: 'refused'; error: unknown } | { phase: 'importing'; id: string };

/**
 * An import of the dialog: the file uploaded as it was picked (POST /contacts/imports, through the
 * dashboard's session), then the background import followed by polling GET /contacts/imports/{id}
 * until it is completed or failed. Closing the dialog leaves the import running.
 */
export function useContactImport(audienceId: string) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const [state, setState] = useState<ImportState>({ phase: 'idle' });
  const id = state.phase === 'importing' ? state.id : null;
  const job = useQuery({
    ...trpc.contactImports.get.queryOptions({ id: id ?? '' }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : POLL_MS),
  });
  // Once it ends, the audience's count and contacts are read again (once per import: `invalidate` is a new function each render).
  const finishedId = job.data && isFinished(job.data) ? job.data.id : null;
  useEffect(() => {
    if (finishedId) void invalidate();
  }, [finishedId]);

  const start = async (input: { file: Blob; fileName: string; mapping: ColumnMapping; hasHeader: boolean; confirmedConsent: boolean }) => {
    setState({ phase: 'uploading' });
    try {
      setState({ phase: 'importing', id: await startImport({ ...input, audienceId }) });
    } catch (error) {
      setState({ phase: 'refused', error });
    }
  };

  return { state, job: job.data ?? null, jobError: job.error, start, reset: () => setState({ phase: 'idle' }) };
}
