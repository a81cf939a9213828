'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { FieldError, SelectField } from '../../../components/field';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';

/** A saved template's subject and bodies, instead of writing them here. The first 100 templates, newest first. */
export function TemplatePicker({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.templates.list.queryOptions({ limit: 100 }));
  const templates = query.data?.data;

  if (query.isPending) return <Skeleton className="h-9 w-full rounded-md" />;
  if (query.isError) {
    return (
      <FieldError id="template-load-error">
        Could not load your templates.{' '}
        <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
          Try again
        </button>
      </FieldError>
    );
  }
  if (templates && templates.length === 0) {
    return (
      <p data-testid="no-templates" className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
        You have no template yet.{' '}
        <Link href="/templates/new" className="font-medium text-indigo-600 hover:underline">
          Write one
        </Link>{' '}
        or write the message here.
      </p>
    );
  }
  const known = templates?.some((template) => template.id === value) ?? false;
  return (
    <div>
      <SelectField
        label="Template"
        name="template_id"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        description="Its subject and bodies are copied into the broadcast when sending starts: later edits to the template do not change a broadcast on its way."
      >
        {(!value || !known) && (
          <option value="" disabled>
            {value ? 'The template was deleted: choose another' : 'Choose a template'}
          </option>
        )}
        {templates?.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name}
          </option>
        ))}
      </SelectField>
      {error && <FieldError id="template-error">{error}</FieldError>}
    </div>
  );
}
