'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import { inputText, parseInput, typeLabel } from '../property-values';
import { PropertyValueInput } from '../property-value-input';
import type { ContactProperty } from '../types';

const FIELDS = ['fallback_value'] as const;

/** A property's fallback, the one thing of it that changes; emptied, it is removed. */
export function EditFallbackDialog({ property, onClose }: { property: ContactProperty; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initial = inputText(property.type, property.fallbackValue);
  const [fallback, setFallback] = useState(initial);
  const [localError, setLocalError] = useState<string | undefined>();
  const update = useMutation(trpc.contactProperties.update.mutationOptions({ onSuccess: refetchThenClose(() => queryClient.invalidateQueries(trpc.contactProperties.pathFilter()), onClose) }));
  const { byField, other } = fieldErrors(update.error, FIELDS);

  const submit = () => {
    if (fallback === initial) return onClose();
    const parsed = parseInput(property.type, fallback);
    if ('error' in parsed) return setLocalError(parsed.error);
    update.mutate({ id: property.id, fallback_value: parsed.value });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="edit-fallback-dialog"
      title="Edit fallback"
      description={
        <>
          <code className="font-mono font-medium break-all text-slate-700">{property.key}</code>, {typeLabel(property.type).toLowerCase()}. Its key and type are fixed.
        </>
      }
      onSubmit={submit}
      submitLabel="Save fallback"
      pending={update.isPending}
      error={other}
      errorTitle="Could not save the fallback"
    >
      <PropertyValueInput
        type={property.type}
        label="Fallback"
        name="fallback"
        autoFocus
        value={fallback}
        onChange={(text) => {
          setFallback(text);
          setLocalError(undefined);
        }}
        description="What a broadcast uses for a contact without a value. Empty: no fallback."
        error={localError ?? byField.fallback_value}
      />
    </FormDialog>
  );
}
