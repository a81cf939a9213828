'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { useTRPC } from '../../../lib/trpc';
import { inputText, propertyChanges, propertyErrors, typeLabel, valueText } from '../property-values';
import { PropertyValueInput } from '../property-value-input';
import type { ContactProfile, ContactProperty } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';

/**
 * The contact's values, a field of its type per property. Only the fields changed are sent (an
 * emptied one clears the value); a value the server refuses is named under its field.
 */
export function EditPropertiesDialog({ contact, properties, onClose }: { contact: ContactProfile; properties: ContactProperty[]; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateContacts();
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(properties.map(({ key, type }) => [key, inputText(type, contact.properties[key])])));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const update = useMutation(
    trpc.contacts.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );
  const server = propertyErrors(update.error, properties.map((property) => property.key));
  const errorOf = (key: string) => localErrors[key] ?? server.byKey[key];

  const close = () => {
    if (!update.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { changes, errors } = propertyChanges(properties, contact.properties, texts);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ idOrEmail: contact.id, properties: changes });
  };

  return (
    <Dialog open onClose={close} testId="edit-properties-dialog" title="Edit property values" description={<span className="font-medium break-all text-slate-700">{contact.email}</span>}>
      <form onSubmit={submit} className="space-y-5" noValidate>
        {properties.map((property, index) => (
          <PropertyValueInput
            key={property.id}
            type={property.type}
            label={property.key}
            name={`property-${property.key}`}
            autoFocus={index === 0}
            value={texts[property.key] ?? ''}
            onChange={(text) => {
              setTexts((current) => ({ ...current, [property.key]: text }));
              setLocalErrors(({ [property.key]: _, ...rest }) => rest);
            }}
            placeholder={property.fallbackValue !== null ? valueText(property.fallbackValue) : undefined}
            hint={typeLabel(property.type)}
            description={property.fallbackValue !== null ? `Empty: the fallback, ${valueText(property.fallbackValue)}, is used.` : 'Empty: no value.'}
            error={errorOf(property.key)}
          />
        ))}
        {server.other ? <ErrorAlert error={server.other} fallbackTitle="Could not save the values" /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save values
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
