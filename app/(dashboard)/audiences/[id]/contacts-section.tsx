'use client';

import { useMemo, useState } from 'react';
import { FileUpIcon, UserPlusIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { isRefreshing, PagedListFooter } from '../../../components/paged-list';
import { RetryButton } from '../../../components/retry-button';
import { SearchBox } from '../../../components/search-box';
import { countOf } from '../../../lib/format';
import { useMay } from '../../../lib/use-role';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { GatedActions } from '../../create-gate/gated-actions';
import { useCreateGate } from '../../create-gate/use-create-gate';
import type { Contact, Segment } from '../types';
import { AddContactDialog } from './add-contact-dialog';
import { ContactRow } from './contact-row';
import { ContactSkeletonRows } from './contact-skeleton-rows';
import { ContactsEmpty } from './contacts-empty';
import { ContactsTable } from './contacts-table';
import { DeleteContactDialog } from './delete-contact-dialog';
import { DeleteContactsDialog } from './delete-contacts-dialog';
import { EditContactDialog } from './edit-contact-dialog';
import { ImportContactsDialog } from './import/import-contacts-dialog';
import { SelectAllCheckbox } from './select-all-checkbox';
import { SelectionBar } from './selection-bar';
import { SubscriptionFilter } from './subscription-filter';
import { useContacts, type SubscriptionFilter as Filter } from './use-contacts';

type Open = { dialog: 'add' } | { dialog: 'import' } | { dialog: 'edit'; contact: Contact } | { dialog: 'delete'; contact: Contact } | { dialog: 'delete-selected' } | null;

/**
 * The audience's contacts: searched, filtered, paged, ticked for deletion, added one by one or from
 * a CSV file. A rule segment's contacts are its rules': they are listed and their subscription
 * changed, never added or removed by hand (the server refuses it).
 */
export function ContactsSection({ audience }: { audience: Segment }) {
  const ruled = audience.rules !== null;
  const [searchText, setSearchText] = useState('');
  const [subscription, setSubscription] = useState<Filter>('all');
  const search = useDebouncedValue(searchText.trim(), 300);
  const { query, contacts } = useContacts(audience.id, { search, subscription });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const filtered = search !== '' || subscription !== 'all';
  const refreshing = isRefreshing(query);

  // Only contacts on screen can be ticked: a new search or filter starts a new selection.
  const selectedShown = useMemo(() => (contacts ?? []).filter((contact) => selected.has(contact.id)), [contacts, selected]);
  const clearSelection = () => setSelected(new Set());
  const select = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const forget = (ids: string[]) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) next.delete(id);
      return next;
    });
  const changeSearch = (value: string) => {
    setSearchText(value);
    clearSelection();
  };
  const changeSubscription = (value: Filter) => {
    setSubscription(value);
    clearSelection();
  };

  // A role that may not delete contacts gets no checkboxes: ticking is only for deleting.
  const mayDelete = useMay('audiences.batchDeleteContacts') && !ruled;
  const gate = useCreateGate({ procedure: 'audiences.createContact', liveOnly: 'Contacts are shared by Live and Test mode: add and import them in Live.' });
  const addButton = (
    <Button variant="secondary" onClick={() => setOpen({ dialog: 'add' })} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <UserPlusIcon className="size-4" />
      Add contact
    </Button>
  );
  const importButton = (
    <Button onClick={() => setOpen({ dialog: 'import' })} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <FileUpIcon className="size-4" />
      Import CSV
    </Button>
  );
  const empty = audience.contactCount === 0 && !filtered && contacts?.length === 0;
  const actions = ruled ? null : (
    <>
      {addButton}
      {importButton}
    </>
  );

  return (
    <section aria-labelledby="contacts-heading" className="space-y-4" data-testid="contacts">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="contacts-heading" className="text-base font-semibold text-slate-900">
            Contacts
          </h2>
          <p className="mt-1 text-sm text-slate-500">
            {ruled
              ? 'Newest first, as its rules matched them. Broadcasts to this segment go to its subscribed contacts only.'
              : 'Newest first. Broadcasts to this audience go to its subscribed contacts only.'}
          </p>
        </div>
        {!empty && actions && <GatedActions gate={gate}>{actions}</GatedActions>}
      </div>

      {!empty && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <SearchBox value={searchText} onChange={changeSearch} searching={query.isFetching && search !== ''} maxLength={320} />
          <SubscriptionFilter value={subscription} onChange={changeSubscription} />
        </div>
      )}

      {selectedShown.length > 0 && <SelectionBar count={selectedShown.length} onClear={clearSelection} onDelete={() => setOpen({ dialog: 'delete-selected' })} />}

      {query.isPending && (
        <ContactsTable busy selectAll={mayDelete && <SelectAllCheckbox total={0} selected={0} onChange={() => {}} />}>
          <ContactSkeletonRows selectable={mayDelete} />
        </ContactsTable>
      )}

      {query.isError && !contacts && <ErrorAlert error={query.error} fallbackTitle="Could not load the contacts" action={<RetryButton query={query} />} />}

      {contacts?.length === 0 && (
        <ContactsEmpty
          filtered={filtered}
          ruled={ruled}
          actions={
            actions && (
              <GatedActions gate={gate} align="center">
                {actions}
              </GatedActions>
            )
          }
        />
      )}

      {contacts && contacts.length > 0 && (
        <>
          <ContactsTable
            busy={refreshing}
            selectAll={mayDelete && <SelectAllCheckbox total={contacts.length} selected={selectedShown.length} onChange={(all) => setSelected(all ? new Set(contacts.map((contact) => contact.id)) : new Set())} />}
          >
            {contacts.map((contact) => (
              <ContactRow
                key={contact.id}
                contact={contact}
                selectable={mayDelete}
                selected={selected.has(contact.id)}
                onSelect={(on) => select(contact.id, on)}
                onEdit={() => setOpen({ dialog: 'edit', contact })}
                onDelete={ruled ? undefined : () => setOpen({ dialog: 'delete', contact })}
              />
            ))}
            {query.isFetchingNextPage && <ContactSkeletonRows count={2} selectable={mayDelete} />}
          </ContactsTable>
          <PagedListFooter
            count={countOf(contacts.length, 'contact')}
            testId="contacts-footer"
            countTestId="contacts-shown"
            query={query}
            failure={{ more: 'Could not load more contacts', refresh: 'Could not refresh the contacts' }}
          />
        </>
      )}

      {open?.dialog === 'add' && <AddContactDialog audienceId={audience.id} onClose={close} />}
      <ImportContactsDialog audience={audience} open={open?.dialog === 'import'} onClose={close} />
      {open?.dialog === 'edit' && <EditContactDialog audienceId={audience.id} contact={open.contact} onClose={close} />}
      {open?.dialog === 'delete' && <DeleteContactDialog audienceId={audience.id} contact={open.contact} onClose={close} onDeleted={(id) => forget([id])} />}
      {open?.dialog === 'delete-selected' && <DeleteContactsDialog audienceId={audience.id} contacts={selectedShown} onClose={close} onDeleted={forget} />}
    </section>
  );
}
