'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { FieldError, SelectField } from '../../../components/field';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { PickerLoadState } from './picker-load-state';

/**
 * The audience to send to, each with its number of contacts (one list request: the subscribed
 * count of the chosen one, under the chosen topic, comes with the preview, `subscribed`). No audience yet: the way to make one.
 */
export function AudiencePicker({
  value,
  onChange,
  subscribed,
  underTopic = false,
  error,
}: {
  value: string;
  onChange: (id: string) => void;
  subscribed: number | null;
  /** A topic is chosen: `subscribed` counts those in it. */
  underTopic?: boolean;
  error?: string;
}) {
  const trpc = useTRPC();
  const query = useQuery(trpc.audiences.list.queryOptions({}));
  const audiences = query.data?.data;

  if (query.isPending || query.isError) return <PickerLoadState query={query} label="Audience" name="audience" />;
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
        hint={value && subscribed !== null ? <span data-testid="audience-subscribed">{countOf(subscribed, 'subscribed contact')}{underTopic ? ' in the topic' : ''}</span> : undefined}
        description={`Every subscribed contact of the audience${underTopic ? ' in the topic' : ''} gets the broadcast, except addresses on your suppression list.`}
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
