'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import { formatDateTime } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { ACTION_WORDS, BY_THE_PERSON, scopeWords, TONE, TONE_DOT, VIA_WORDS } from './consent-wording';
import { SectionEmpty, SectionLoadState } from './section-states';

const PAGE = 25;

/**
 * The contact's consent history (docs/consent.md): every change, oldest first, with what it came
 * through and, for a change the person made, their client. What a regulator's "prove this person
 * agreed" is answered with.
 */
export function ConsentSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const [limit, setLimit] = useState(PAGE);
  const ledger = useQuery({ ...trpc.contactConsent.list.queryOptions({ idOrEmail: contact.id, limit }), placeholderData: (previous) => previous });
  const segments = useQuery(trpc.contacts.listSegments.queryOptions({ idOrEmail: contact.id }));
  const topics = useQuery(trpc.topics.list.queryOptions({}));
  const names = {
    audiences: new Map((segments.data?.data ?? []).map((segment) => [segment.id, segment.name])),
    topics: new Map((topics.data?.data ?? []).map((topic) => [topic.id, topic.name])),
  };
  const entries = ledger.data?.data;

  return (
    <CardSection
      testId="contact-consent"
      title="Consent history"
      description="Every change of this contact's consent, oldest first: what changed, when, and through what. Entries are never rewritten; they stay after the contact is deleted."
    >
      <SectionLoadState query={ledger} errorTitle="Could not load the consent history" />
      {entries?.length === 0 && <SectionEmpty testId="no-consent">Nothing recorded yet.</SectionEmpty>}
      {entries && entries.length > 0 && (
        <ol className="mt-4 space-y-0 border-l border-slate-200 pl-4" data-testid="consent-entries">
          {entries.map((entry) => (
            <li key={entry.id} className="relative pb-4 last:pb-0" data-testid="consent-entry" data-action={entry.action} data-via={entry.via}>
              <span aria-hidden className={`absolute top-1.5 -left-[21px] size-2.5 rounded-full ring-2 ring-white ${TONE_DOT[TONE[entry.action]]}`} />
              <p className="text-sm text-slate-900">
                <span className="font-semibold">{ACTION_WORDS[entry.action]}</span>
                <span className="text-slate-500"> · {scopeWords(entry, names)}</span>
              </p>
              <p className="mt-0.5 text-xs text-slate-500">
                {formatDateTime(entry.createdAt)} · {VIA_WORDS[entry.via]}
                {entry.formVersion !== null && ` (consent text v${entry.formVersion})`}
                {entry.email === null && ' · address erased, kept by its hash'}
              </p>
              {BY_THE_PERSON.has(entry.via) && (entry.clientAddress || entry.userAgent) && (
                <p className="mt-0.5 truncate text-xs text-slate-400" title={entry.userAgent ?? undefined}>
                  From {entry.clientAddress ?? 'an unknown address'}
                  {entry.userAgent ? ` · ${entry.userAgent}` : ''}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {ledger.data?.hasMore && (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => setLimit((shown) => Math.min(shown + PAGE * 4, 1000))} loading={ledger.isFetching}>
            Show more
          </Button>
        </div>
      )}
    </CardSection>
  );
}
