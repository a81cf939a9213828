'use client';

import { useState } from 'react';
import { PencilIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { MayCall } from '../../../components/may-call';
import { RelativeTime } from '../../../components/relative-time';
import { formatPreciseDateTime } from '../../../lib/format';
import { EventsSummary } from '../events-summary';
import type { Webhook } from '../types';
import { EditWebhookDialog } from './edit-webhook-dialog';
import { Fact } from './fact';

/** The URL events go to, which events, since when, and the way to change them. */
export function WebhookHeader({ webhook }: { webhook: Webhook }) {
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="webhook-url" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Webhook endpoint</p>
          <h1 id="webhook-url" className="mt-1 font-mono text-xl font-semibold tracking-tight wrap-anywhere text-slate-900">
            {webhook.url}
          </h1>
        </div>
        <MayCall procedure="webhooks.update">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            <PencilIcon className="size-4" />
            Edit
          </Button>
        </MayCall>
      </div>
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Fact label="Events">
          <EventsSummary events={webhook.events} limit={Infinity} />
        </Fact>
        <Fact label="Created" testId="webhook-created">
          {formatPreciseDateTime(webhook.createdAt)}
          <span className="block text-xs text-slate-500">
            <RelativeTime iso={webhook.createdAt} />
          </span>
        </Fact>
        <Fact label="Endpoint ID">
          <span className="flex items-start gap-2">
            <code className="min-w-0 pt-1.5 font-mono text-xs break-all text-slate-700" data-testid="webhook-id">
              {webhook.id}
            </code>
            <CopyButton text={webhook.id} size="sm" iconOnly describe="endpoint ID" />
          </span>
        </Fact>
      </dl>
      <EditWebhookDialog webhook={webhook} open={editing} onClose={() => setEditing(false)} />
    </section>
  );
}
