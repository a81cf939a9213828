'use client';

import { useState, type ReactNode } from 'react';
import { PencilIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { RelativeTime } from '../../../components/relative-time';
import { formatPreciseDateTime } from '../../../lib/format';
import type { ContactProfile } from '../types';
import { PendingBadge } from '../pending-badge';
import { UnsubscribedBadge } from '../unsubscribed-badge';
import { EditNamesDialog } from './edit-names-dialog';
import { useContactWrite } from './use-contact-write';

const none = <span className="text-slate-400">—</span>;

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The contact's address and name, its first and last names, since when it is a contact, and its id for the API. */
export function ContactHeader({ contact }: { contact: ContactProfile }) {
  const [editing, setEditing] = useState(false);
  const write = useContactWrite('contacts.update');
  return (
    <section aria-labelledby="contact-email" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Contact</p>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
            <h1 id="contact-email" className="text-2xl font-semibold tracking-tight break-all text-slate-900">
              {contact.email}
            </h1>
            {contact.pending ? <PendingBadge /> : contact.unsubscribed && <UnsubscribedBadge />}
          </div>
          <p className="mt-1 text-sm text-slate-600" data-testid="contact-name">
            {contact.name ?? <span className="text-slate-400">No name</span>}
          </p>
        </div>
        {write.offered && (
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={write.disabled}>
            <PencilIcon className="size-4" />
            Edit names
          </Button>
        )}
      </div>
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-2 lg:grid-cols-4">
        <Fact label="First name" testId="contact-first-name">
          {contact.firstName ?? none}
        </Fact>
        <Fact label="Last name" testId="contact-last-name">
          {contact.lastName ?? none}
        </Fact>
        <Fact label="Added">
          {formatPreciseDateTime(contact.createdAt)}
          <span className="block text-xs text-slate-500">
            <RelativeTime iso={contact.createdAt} />
          </span>
        </Fact>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Contact ID</dt>
          <dd className="mt-1 flex items-start gap-2">
            <code className="min-w-0 pt-1.5 font-mono text-xs break-all text-slate-700" data-testid="contact-id">
              {contact.id}
            </code>
            <CopyButton text={contact.id} size="sm" iconOnly describe="contact ID" />
          </dd>
        </div>
      </dl>
      {editing && <EditNamesDialog contact={contact} onClose={() => setEditing(false)} />}
    </section>
  );
}
