'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { SelectField, TextField } from '../../../components/field';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import { parseInput, PROPERTY_TYPES } from '../property-values';
import { PropertyValueInput } from '../property-value-input';
import type { PropertyType } from '../types';

const FIELDS = ['key', 'type', 'fallback_value'] as const;

const isType = (value: string): value is PropertyType => PROPERTY_TYPES.some((entry) => entry.type === value);

/** A key, a type and an optional fallback; the key and the type are fixed once made. */
export function CreatePropertyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [type, setType] = useState<PropertyType>('string');
  const [fallback, setFallback] = useState('');
  const [fallbackError, setFallbackError] = useState<string | undefined>();
  const create = useMutation(
    trpc.contactProperties.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.contactProperties.pathFilter());
        finish();
      },
    }),
  );
  const { byField, other } = fieldErrors(create.error, FIELDS);

  function finish() {
    setKey('');
    setType('string');
    setFallback('');
    setFallbackError(undefined);
    create.reset();
    onClose();
  }

  const close = () => {
    if (!create.isPending) finish();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseInput(type, fallback);
    if ('error' in parsed) return setFallbackError(parsed.error);
    create.mutate({ key: key.trim(), type, fallback_value: parsed.value ?? undefined });
  };

  return (
    <Dialog open={open} onClose={close} testId="create-property-dialog" title="Create property" description="A field every contact may carry a value of. Its key and type cannot be changed later.">
      <form onSubmit={submit} className="space-y-5" noValidate>
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
        {other ? <ErrorAlert error={other} fallbackTitle="Could not create the property" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!key.trim()}>
            Create property
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
