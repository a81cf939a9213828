'use client';

import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { countOf, formatCount } from '../../../lib/format';
import { useTRPCClient } from '../../../lib/trpc';
import { useInvalidateAudiences } from '../use-invalidate-audiences';
import { chunk } from './contact-batches';

type Progress = { phase: 'idle' } | { phase: 'deleting'; done: number } | { phase: 'failed'; deleted: number; error: unknown };

const SHOWN = 5;

/** Delete the ticked contacts, 1,000 per request one after the other, after a confirmation. */
export function DeleteContactsDialog({ audienceId, contacts, onClose, onDeleted }: { audienceId: string; contacts: Array<{ id: string; email: string }>; onClose: () => void; onDeleted: (ids: string[]) => void }) {
  const client = useTRPCClient();
  const invalidate = useInvalidateAudiences();
  // The contacts ticked when the dialog opened: the selection behind it shrinks as they go.
  const [targets, setTargets] = useState(contacts);
  const [progress, setProgress] = useState<Progress>({ phase: 'idle' });
  const busy = progress.phase === 'deleting';

  const run = async () => {
    const gone: string[] = [];
    let deleted = 0;
    setProgress({ phase: 'deleting', done: 0 });
    for (const batch of chunk(targets.map((contact) => contact.id))) {
      try {
        const answer = await client.audiences.batchDeleteContacts.mutate({ id: audienceId, ids: batch }, { context: { skipBatch: true } });
        deleted += answer.deleted;
        gone.push(...batch);
        setProgress({ phase: 'deleting', done: gone.length });
      } catch (error) {
        // What was deleted leaves the selection; the rest stays ticked for another try.
        onDeleted(gone);
        setTargets(targets.filter((contact) => !gone.includes(contact.id)));
        setProgress({ phase: 'failed', deleted, error });
        void invalidate();
        return;
      }
    }
    onDeleted(gone);
    await invalidate();
    onClose();
  };

  const close = () => {
    if (!busy) onClose();
  };

  const rest = targets.length - SHOWN;
  return (
    <Dialog open onClose={close} testId="delete-contacts-dialog" title={`Delete ${countOf(targets.length, 'contact')}`} description="They and their subscription status are deleted from this audience.">
      <div className="space-y-4">
        <ul className="space-y-0.5 text-sm break-all text-slate-700">
          {targets.slice(0, SHOWN).map((contact) => (
            <li key={contact.id}>{contact.email}</li>
          ))}
          {rest > 0 && <li className="text-slate-500">and {countOf(rest, 'other')}</li>}
        </ul>
        <p className="text-sm text-slate-600">To stop sending to people without losing their opt-out, unsubscribe them instead.</p>
        {busy && targets.length > 1_000 && (
          <p className="text-sm text-slate-600" aria-live="polite">
            Deleted {formatCount(progress.done)} of {formatCount(targets.length)}…
          </p>
        )}
        {progress.phase === 'failed' && (
          <ErrorAlert error={progress.error} fallbackTitle={progress.deleted > 0 ? `Stopped after deleting ${countOf(progress.deleted, 'contact')}` : 'Could not delete the contacts'} />
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={busy}>
            {progress.phase === 'failed' ? 'Close' : 'Cancel'}
          </Button>
          <Button variant="danger" loading={busy} onClick={() => void run()}>
            Delete {countOf(targets.length, 'contact')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
