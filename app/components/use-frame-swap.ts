'use client';

import { useCallback, useEffect, useState } from 'react';

/** One document of a preview pane, with the version its frame is keyed by. */
export interface PreviewFrame {
  version: number;
  srcDoc: string;
}

interface Frames {
  /** The document the pane shows. */
  shown: PreviewFrame;
  /** The next one, loading unseen over it. */
  next: PreviewFrame | null;
  /** The one shown before, kept under the shown one for a moment after a swap. */
  previous: PreviewFrame | null;
}

/** The longest the shown document stays while the next one loads: a document waiting on slow remote images still comes. */
const SWAP_AFTER_MS = 1_500;

/**
 * How long the document shown before stays under the one swapped in. Chromium paints an
 * opaque-origin frame in its own process and not while it is invisible: made visible, it is
 * transparent until its first paint (measured: up to about a tenth of a second), and the one
 * under it shows through instead of an empty pane.
 */
const RETIRE_MS = 500;

/**
 * The documents of a preview pane: the one shown, and the next one loading in a frame of its own
 * over it, unseen. The next one takes the place of the shown one once its frame has loaded (or
 * after SWAP_AFTER_MS), the one it replaces staying under it until it has painted, so the pane
 * never goes blank between two documents (a template preview renders again as the person types,
 * remote images are asked for). A newer document replaces a next one still loading.
 */
export function useFrameSwap(srcDoc: string) {
  const [frames, setFrames] = useState<Frames>({ shown: { version: 0, srcDoc }, next: null, previous: null });
  const latest = frames.next ?? frames.shown;
  if (latest.srcDoc !== srcDoc) {
    // Back to the document shown (remote images blocked again before the next one came): nothing to load.
    setFrames({ ...frames, next: srcDoc === frames.shown.srcDoc ? null : { version: latest.version + 1, srcDoc } });
  }
  const loaded = useCallback(
    (version: number) => setFrames((current) => (current.next?.version === version ? { shown: current.next, next: null, previous: current.shown } : current)),
    [],
  );
  const pending = frames.next?.version;
  useEffect(() => {
    if (pending === undefined) return;
    const timer = setTimeout(() => loaded(pending), SWAP_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending, loaded]);
  const retiring = frames.previous?.version;
  useEffect(() => {
    if (retiring === undefined) return;
    const timer = setTimeout(() => setFrames((current) => (current.previous?.version === retiring ? { ...current, previous: null } : current)), RETIRE_MS);
    return () => clearTimeout(timer);
  }, [retiring]);
  return { ...frames, loaded };
}
