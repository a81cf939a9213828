'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';
import { CheckIcon, CopyIcon } from './icons';

/** Copies text to the clipboard and confirms with "Copied" for two seconds. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <Button variant="secondary" onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? <CheckIcon className="size-4 text-emerald-600" /> : <CopyIcon className="size-4" />}
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy' : label}
    </Button>
  );
}
