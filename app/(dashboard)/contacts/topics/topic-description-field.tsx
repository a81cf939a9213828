import type { ReactNode } from 'react';
import { TextareaField } from '../../../components/field';

/** A topic's description, optional: a line or two on what its mail is. */
export function TopicDescriptionField({ value, onChange, placeholder, description, error }: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  description?: ReactNode;
  error?: ReactNode;
}) {
  return (
    <TextareaField
      label="Description"
      name="description"
      hint="Optional"
      rows={2}
      maxLength={500}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      description={description}
      error={error}
    />
  );
}
