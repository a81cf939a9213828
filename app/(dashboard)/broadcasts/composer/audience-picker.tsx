'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { FieldError, SelectField } from '../../../components/field';
import { Skeleton } from '../../../components/skeleton';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';

/**
 * The audience to send to, each with its number of contacts (one list request: the subscribed
 * count of the chosen one comes with the preview, `subscribed`). No audience yet: the way to make one.
 */
export function AudiencePicker({ value, onChange, subscribed, error }: { value: string; onChange: (id: string) => void; subscribed: number | null; error?: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.audiences.list.queryOptions({}));
  const audiences = query.data?.data;

  if (query.isPending) {
    return (
      <div aria-busy="true" data-testid="audience-picker-loading">
        <Skeleton className="mb-1.5 h-4 w-20" />
        <Skeleton className="h-9 w-full rounded-md" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Audience</p>
        <FieldError id="audience-load-error">
          Could not load your audiences.{' '}
          <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
            Try again
          </button>
        </FieldError>
      </div>
    );
  }
  if (audiences && audiences.length === 0) {
    return (
      <div data-testid="no-audiences" className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
        <p className="font-medium text-slate-800">Audience</p>
        <p className="mt-1">
          You have no audience yet.{' '}
          <Link href="/audiences" className="font-medium text-indigo-600 hover:underline">
            Create one and add its contacts
          </Link>
          , then come back to write the broadcast.
        </p>
      </div>
    );
  }

  const known = audiences?.some((audience) => audience.id === value) ?? false;
  return (
    <div>
      <SelectField
        label="Audience"
        name="audience_id"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        hint={value && subscribed !== null ? <span data-testid="audience-subscribed">{countOf(subscribed, 'subscribed contact')}</span> : undefined}
        description="Every subscribed contact of the audience gets the broadcast, except addresses on your suppression list."
      >
        {(!value || !known) && (
          <option value="" disabled>
            {value ? 'The audience was deleted: choose another' : 'Choose an audience'}
          </option>
        )}
        {audiences?.map((audience) => (
          <option key={audience.id} value={audience.id}>
            {audience.name} · {countOf(audience.contactCount, 'contact')}
          </option>
        ))}
      </SelectField>
      {error && <FieldError id="audience-error">{error}</FieldError>}
    </div>
  );
}
