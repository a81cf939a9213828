'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SelectField, TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import { parseInput, PROPERTY_TYPES } from '../property-values';
import { PropertyValueInput } from '../property-value-input';
import type { PropertyType } from '../types';

const FIELDS = ['key', 'type', 'fallback_value'] as const;

const isType = (value: string): value is PropertyType => PROPERTY_TYPES.some((entry) => entry.type === value);

/** A key, a type and an optional fallback; the key and the type are fixed once made. Rendered only while open. */
export function CreatePropertyDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [type, setType] = useState<PropertyType>('string');
  const [fallback, setFallback] = useState('');
  const [fallbackError, setFallbackError] = useState<string | undefined>();
  const create = useMutation(trpc.contactProperties.create.mutationOptions({ onSuccess: refetchThenClose(() => queryClient.invalidateQueries(trpc.contactProperties.pathFilter()), onClose) }));
  const { byField, other } = fieldErrors(create.error, FIELDS);

  const submit = () => {
    const parsed = parseInput(type, fallback);
    if ('error' in parsed) return setFallbackError(parsed.error);
    create.mutate({ key: key.trim(), type, fallback_value: parsed.value ?? undefined });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="create-property-dialog"
      title="Create property"
      description="A field every contact may carry a value of. Its key and type cannot be changed later."
      onSubmit={submit}
      submitLabel="Create property"
      submitDisabled={!key.trim()}
      pending={create.isPending}
      error={other}
      errorTitle="Could not create the property"
    >
      <TextField
        label="Key"
        name="key"
        placeholder="plan"
        required
        maxLength={50}
        autoFocus
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={key}
        onChange={(event) => setKey(event.target.value)}
        description="Letters, digits and underscores, up to 50; exact (plan and Plan are two properties). Not a field every contact has, such as email or first_name."
        error={byField.key}
      />
      <SelectField
        label="Type"
        name="type"
        value={type}
        onChange={(event) => {
          if (isType(event.target.value)) setType(event.target.value);
          setFallback('');
          setFallbackError(undefined);
        }}
        description="Every value given is checked against it."
        error={byField.type}
      >
        {PROPERTY_TYPES.map((entry) => (
          <option key={entry.type} value={entry.type}>
            {entry.label} (such as {entry.example})
          </option>
        ))}
      </SelectField>
      <PropertyValueInput
        key={type}
        type={type}
        label="Fallback"
        name="fallback"
        value={fallback}
        onChange={(text) => {
          setFallback(text);
          setFallbackError(undefined);
        }}
        description="Optional: what a broadcast uses for a contact without a value."
        error={fallbackError ?? byField.fallback_value}
      />
    </FormDialog>
  );
}
