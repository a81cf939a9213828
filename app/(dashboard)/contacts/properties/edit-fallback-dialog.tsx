'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
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
  const update = useMutation(
    trpc.contactProperties.update.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.contactProperties.pathFilter());
        onClose();
      },
    }),
  );
  const { byField, other } = fieldErrors(update.error, FIELDS);

  const close = () => {
    if (!update.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (fallback === initial) return onClose();
    const parsed = parseInput(property.type, fallback);
    if ('error' in parsed) return setLocalError(parsed.error);
    update.mutate({ id: property.id, fallback_value: parsed.value });
  };

  return (
    <Dialog
      open
      onClose={close}
      testId="edit-fallback-dialog"
      title="Edit fallback"
      description={
        <>
          <code className="font-mono font-medium break-all text-slate-700">{property.key}</code>, {typeLabel(property.type).toLowerCase()}. Its key and type are fixed.
        </>
      }
    >
      <form onSubmit={submit} className="space-y-5" noValidate>
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
        {other ? <ErrorAlert error={other} fallbackTitle="Could not save the fallback" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save fallback
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
