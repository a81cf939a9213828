'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FieldError, SelectField } from '../../components/field';
import { Skeleton } from '../../components/skeleton';
import { useTRPC } from '../../lib/trpc';
import { templateChoices, type ChoiceRules } from './template-choices';

export interface TemplateSelectProps extends Omit<ChoiceRules, 'value'> {
  label: string;
  value: string;
  onChange: (id: string) => void;
  name?: string;
  disabled?: boolean;
  description?: ReactNode;
  /** The server's complaint about the field. */
  error?: ReactNode;
  /** The select's `data-testid`. */
  testId?: string;
  /** The id of the "could not load" message. */
  loadErrorId: string;
  /** Shown instead of the select when there is nothing to choose (see `templateChoices`). */
  empty?: ReactNode;
}

/**
 * Picks one of the organization's templates (the first 100, newest first): the broadcast composer,
 * an audience's re-engagement email, a form's confirmation email. Each page says which templates
 * it can use (`unusable`) and what an empty choice means; the options follow `templateChoices`.
 */
export function TemplateSelect({ label, value, onChange, name, disabled, description, error, testId, loadErrorId, empty, ...rules }: TemplateSelectProps) {
  const trpc = useTRPC();
  const query = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  if (query.isPending) return <Skeleton className="h-9 w-full rounded-md" />;
  if (query.isError) {
    return (
      <FieldError id={loadErrorId}>
        Could not load your templates.{' '}
        <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </FieldError>
    );
  }
  const choices = templateChoices(query.data.data, { ...rules, value });
  if (choices.empty && empty) return <>{empty}</>;
  return (
    <SelectField
      label={label}
      name={name}
      value={choices.selected}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      description={description}
      error={error}
      data-testid={testId}
    >
      {choices.options.map((option) => (
        <option key={option.value || 'none'} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </SelectField>
  );
}
