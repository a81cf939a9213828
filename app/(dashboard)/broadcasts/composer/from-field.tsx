'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { TextField } from '../../../components/field';
import { useTRPC } from '../../../lib/trpc';

/** The sender, with the verified domains it may use named under it (a broadcast from any other is refused). */
export function FromField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const trpc = useTRPC();
  const domains = useQuery(trpc.domains.list.queryOptions({}));
  const verified = domains.data?.data.filter((domain) => domain.status === 'verified' && !domain.sandbox).map((domain) => domain.name) ?? [];
  const description = !domains.data ? (
    'An address on one of your verified domains.'
  ) : verified.length === 0 ? (
    <>
      You have no verified domain yet:{' '}
      <Link href="/domains" className="font-medium text-indigo-600 hover:underline">
        add and verify one
      </Link>{' '}
      to send a broadcast.
    </>
  ) : (
    <>An address on a verified domain: {verified.join(', ')}.</>
  );
  return (
    <TextField
      label="From"
      name="from"
      required
      autoComplete="off"
      spellCheck={false}
      placeholder={`Acme News <news@${verified[0] ?? 'example.com'}>`}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      description={description}
      error={error}
    />
  );
}
