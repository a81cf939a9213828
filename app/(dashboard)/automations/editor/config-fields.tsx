'use client';

import { useState } from 'react';
import { TextareaField } from '../../../components/field';

/** The config with one field set, or left out when empty (the server refuses an empty string where a field is optional). */
export function withField(config: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...config };
  if (value === '' || value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** A field's text value in a config (the editor shows what is not text as empty). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/**
 * An object-valued part of a config as JSON (a condition group, a wait's filter, properties to set):
 * written as text, given to the config once it parses; empty leaves the field out.
 */
export function JsonField({ label, value, onChange, description, testId }: { label: string; value: unknown; onChange: (value: unknown) => void; description?: string; testId?: string }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  const [invalid, setInvalid] = useState(false);
  return (
    <TextareaField
      label={label}
      mono
      rows={Math.min(10, Math.max(3, text.split('\n').length))}
      value={text}
      description={description}
      error={invalid ? 'Not JSON yet: the step keeps its last valid value.' : undefined}
      data-testid={testId}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (next.trim() === '') {
          setInvalid(false);
          onChange(undefined);
          return;
        }
        try {
          onChange(JSON.parse(next));
          setInvalid(false);
        } catch {
          setInvalid(true);
        }
      }}
    />
  );
}
