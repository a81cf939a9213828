import type { ReactNode } from 'react';
import { SelectField, TextField } from '../../components/field';
import { PROPERTY_STRING_MAX } from '@/server/services/contact-properties/values';
import type { PropertyType } from './types';

/**
 * A field for one value of a property's type: text, a number, true or false, a day. Its text is
 * what {@link parseInput} reads; empty is no value.
 */
export function PropertyValueInput({
  type,
  label,
  name,
  value,
  onChange,
  hint,
  description,
  placeholder,
  error,
  autoFocus,
}: {
  type: PropertyType;
  label: string;
  name: string;
  value: string;
  onChange: (text: string) => void;
  /** Beside the label, at its right (the type, in the contact's form). */
  hint?: ReactNode;
  description?: ReactNode;
  /** Shown in an empty text, number or date field (the fallback a contact without a value gets). */
  placeholder?: string;
  error?: string;
  autoFocus?: boolean;
}) {
  const common = { label, name, hint, description, error, autoFocus, 'data-property-type': type };
  switch (type) {
    case 'boolean':
      return (
        <SelectField {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{placeholder ? `No value (${placeholder})` : 'No value'}</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </SelectField>
      );
    case 'date':
      return <TextField {...common} type="date" value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'number':
      return (
        <TextField {...common} type="text" inputMode="decimal" autoComplete="off" placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
      );
    case 'string':
      return (
        <TextField {...common} type="text" autoComplete="off" maxLength={PROPERTY_STRING_MAX} placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)} />
      );
  }
}
