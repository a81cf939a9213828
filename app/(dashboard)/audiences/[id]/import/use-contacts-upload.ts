'use client';

import { useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '../../../../lib/trpc';
import { useInvalidateAudiences } from '../../use-invalidate-audiences';
import type { ImportRow } from './contact-rows';
import { uploadContacts, type UploadOutcome, type UploadProgress } from './contact-upload';

export type UploadState = { phase: 'idle' } | { phase: 'uploading'; progress: UploadProgress; stopping: boolean } | { phase: 'done'; outcome: UploadOutcome };

/**
 * Runs an import's upload with `batchContacts`, batch after batch, and keeps its progress for the
 * dialog. Stopping waits for the batch on its way; leaving the page stops it the same way.
 */
export function useContactsUpload(audienceId: string) {
  const client = useTRPCClient();
  const invalidate = useInvalidateAudiences();
  const stopRequested = useRef(false);
  const [state, setState] = useState<UploadState>({ phase: 'idle' });

  useEffect(
    () => () => {
      stopRequested.current = true;
    },
    [],
  );

  const start = async (rows: ImportRow[]) => {
    stopRequested.current = false;
    const outcome = await uploadContacts(
      rows,
      // Each batch in a request of its own: a thousand rows never wait in a batch of queries.
      (contacts) => client.audiences.batchContacts.mutate({ id: audienceId, contacts }, { context: { skipBatch: true } }),
      {
        onProgress: (progress) => setState({ phase: 'uploading', progress, stopping: stopRequested.current }),
        shouldStop: () => stopRequested.current,
      },
    );
    setState({ phase: 'done', outcome });
    void invalidate();
  };

  const stop = () => {
    stopRequested.current = true;
    setState((current) => (current.phase === 'uploading' ? { ...current, stopping: true } : current));
  };

  return { state, start, stop, reset: () => setState({ phase: 'idle' }) };
}
