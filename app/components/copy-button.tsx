'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';
import { CheckIcon, CopyIcon } from 'lucide-react';

/**
 * Copies text to the clipboard and confirms with "Copied" for two seconds. `describe` names what
 * is copied for screen readers and tests ("Copy DKIM value") when several buttons share a screen;
 * `iconOnly` keeps the words for them alone (tables), with a tooltip for everyone else.
 */
export function CopyButton({
  text,
  label = 'Copy',
  size = 'md',
  describe,
  iconOnly = false,
}: {
  text: string;
  label?: string;
  size?: 'sm' | 'md';
  describe?: string;
  iconOnly?: boolean;
}) {
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

  const words = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy' : label;
  return (
    <Button
      variant="secondary"
      size={size}
      onClick={() => void copy()}
      aria-live="polite"
      title={iconOnly ? [words, describe].filter(Boolean).join(' ') : undefined}
      className={iconOnly ? (size === 'sm' ? 'w-8 px-0!' : 'w-9 px-0!') : undefined}
    >
      {state === 'copied' ? <CheckIcon className="size-4 text-emerald-600" /> : <CopyIcon className="size-4" />}
      {iconOnly ? <span className="sr-only">{words}</span> : words}
      {describe && <span className="sr-only"> {describe}</span>}
    </Button>
  );
}
