import type { ReactNode } from 'react';
import { TextField } from './field';

/**
 * The name someone gives a thing they make or rename (a key, a topic, an audience): required,
 * the first field to type in, and off limits to the browser's autofill, which would offer a
 * person's name.
 */
export function NameField({ value, onChange, maxLength, placeholder, description, error }: {
  value: string;
  onChange: (value: string) => void;
  /** The server's limit for this kind of thing. */
  maxLength: number;
  placeholder?: string;
  description?: ReactNode;
  error?: ReactNode;
}) {
  return (
    <TextField
      label="Name"
      name="name"
      placeholder={placeholder}
      required
      maxLength={maxLength}
      autoFocus
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      description={description}
      error={error}
    />
  );
}
