'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { UserPlusIcon } from 'lucide-react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { SearchBox } from '../../components/search-box';
import { countOf } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useTRPC } from '../../lib/trpc';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import { AddContactDialog } from './add-contact-dialog';
import { ContactRow } from './contact-row';
import { ContactSkeletonRows } from './contact-skeleton-rows';
import { ContactsEmpty } from './contacts-empty';
import { ContactsTable } from './contacts-table';
import { ContactsTabs } from './contacts-tabs';
import { SegmentFilter } from './segment-filter';
import { useContactProfiles } from './use-contact-profiles';

/** Every contact of the organization: searched by address, narrowed to a segment, paged, added one by one. */
export function ContactsView() {
  const trpc = useTRPC();
  const [searchText, setSearchText] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const { query, contacts } = useContactProfiles({ search, segmentId });
  const segments = useQuery(trpc.segments.list.queryOptions({})).data?.data ?? [];
  // A rule segment's members are its rules': a contact is put in lists only (the server refuses the others).
  const lists = segments.filter((segment) => segment.rules === null);
  const [adding, setAdding] = useState(false);
  const filtered = search !== '' || segmentId !== '';
  const empty = !filtered && contacts?.length === 0;
  const gate = useCreateGate({ procedure: 'contacts.create', liveOnly: 'Contacts are shared by Live and Test mode: add them in Live.' });

  const addButton = (
    <Button onClick={() => setAdding(true)} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <UserPlusIcon className="size-4" />
      Add contact
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Contacts"
        description="Every contact of your organization, one per address, newest first. Open one for its property values and segments."
        actions={contacts && !empty ? <GatedActions gate={gate}>{addButton}</GatedActions> : undefined}
      />
      <ContactsTabs />

      <div className="space-y-4" data-testid="contacts">
        {!empty && (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <SearchBox value={searchText} onChange={setSearchText} searching={query.isFetching && search !== ''} maxLength={320} />
            {segments.length > 0 && <SegmentFilter segments={segments} value={segmentId} onChange={setSegmentId} />}
          </div>
        )}

        {query.isPending && (
          <ContactsTable busy>
            <ContactSkeletonRows />
          </ContactsTable>
        )}

        {query.isError && !contacts && <ErrorAlert error={query.error} fallbackTitle="Could not load the contacts" action={<RetryButton query={query} />} />}

        {contacts?.length === 0 && (
          <ContactsEmpty
            filtered={filtered}
            action={
              <GatedActions gate={gate} align="center">
                {addButton}
              </GatedActions>
            }
          />
        )}

        {contacts && contacts.length > 0 && (
          <div>
            <ContactsTable busy={isRefreshing(query)}>
              {contacts.map((contact) => (
                <ContactRow key={contact.id} contact={contact} />
              ))}
              {query.isFetchingNextPage && <ContactSkeletonRows count={2} />}
            </ContactsTable>
            <PagedListFooter
              count={countOf(contacts.length, 'contact')}
              testId="contacts-footer"
              countTestId="contacts-shown"
              query={query}
              failure={{ more: 'Could not load more contacts', refresh: 'Could not refresh the contacts' }}
            />
          </div>
        )}
      </div>

      {adding && <AddContactDialog segments={lists} onClose={() => setAdding(false)} />}
    </>
  );
}
