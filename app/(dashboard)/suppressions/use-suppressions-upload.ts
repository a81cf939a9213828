'use client';

import { useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '../../lib/trpc';
import type { CallerReason } from './reasons';
import { uploadAddresses, type UploadOutcome, type UploadProgress } from './suppression-upload';
import { useInvalidateSuppressions } from './use-invalidate-suppressions';

export type UploadState = { phase: 'idle' } | { phase: 'uploading'; progress: UploadProgress } | { phase: 'done'; outcome: UploadOutcome };

/**
 * Adds several addresses with `batch`, 1,000 per request, and keeps the progress and the summed
 * answer for the dialog. Leaving the page stops it before the next batch.
 */
export function useSuppressionsUpload() {
  const client = useTRPCClient();
  const invalidate = useInvalidateSuppressions();
  const left = useRef(false);
  const [state, setState] = useState<UploadState>({ phase: 'idle' });

  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);

  const start = async (emails: string[], reason: CallerReason) => {
    const outcome = await uploadAddresses(
      emails,
      // Each batch in a request of its own: a thousand addresses never wait in a batch of queries.
      (batch) => client.suppressions.batch.mutate({ emails: batch, reason }, { context: { skipBatch: true } }),
      { onProgress: (progress) => setState({ phase: 'uploading', progress }), shouldStop: () => left.current },
    );
    setState({ phase: 'done', outcome });
    void invalidate();
  };

  return { state, start, reset: () => setState({ phase: 'idle' }) };
}
