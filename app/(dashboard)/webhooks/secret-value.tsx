'use client';

import { useId } from 'react';
import { CopyButton } from '../../components/copy-button';

/** A signing secret in a read-only box that selects itself on focus, with a copy button. */
export function SecretValue({ secret, label = 'Signing secret', testId = 'webhook-secret' }: { secret: string; label?: string; testId?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <input
          id={id}
          data-testid={testId}
          readOnly
          spellCheck={false}
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
          className="block h-9 w-full min-w-0 rounded-md border-0 bg-slate-50 px-3 font-mono text-sm text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
        />
        <CopyButton text={secret} describe={label.toLowerCase()} />
      </div>
    </div>
  );
}
