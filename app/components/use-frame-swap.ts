'use client';

import { useCallback, useEffect, useState } from 'react';

/** One document of a preview pane, with the version its frame is keyed by. */
export interface PreviewFrame {
  version: number;
  srcDoc: string;
}

/** The longest the shown document stays while the next one loads: a document waiting on slow remote images still comes. */
const SWAP_AFTER_MS = 1_500;

/**
 * The documents of a preview pane: the one shown, and the next one loading unseen in a frame of
 * its own. The next one takes the place of the shown one when its frame has loaded (or after
 * SWAP_AFTER_MS), so the pane never goes blank between two documents (a template preview renders
 * again as the person types). A newer document replaces a next one still loading.
 */
export function useFrameSwap(srcDoc: string) {
  const [frames, setFrames] = useState<{ shown: PreviewFrame; next: PreviewFrame | null }>({ shown: { version: 0, srcDoc }, next: null });
  const latest = frames.next ?? frames.shown;
  if (latest.srcDoc !== srcDoc) {
    // Back to the document shown (remote images blocked again before the next one came): nothing to load.
    setFrames(srcDoc === frames.shown.srcDoc ? { shown: frames.shown, next: null } : { shown: frames.shown, next: { version: latest.version + 1, srcDoc } });
  }
  const loaded = useCallback((version: number) => setFrames((current) => (current.next?.version === version ? { shown: current.next, next: null } : current)), []);
  const pending = frames.next?.version;
  useEffect(() => {
    if (pending === undefined) return;
    const timer = setTimeout(() => loaded(pending), SWAP_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending, loaded]);
  return { shown: frames.shown, next: frames.next, loaded };
}
