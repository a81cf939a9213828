'use client';

import { CalendarClockIcon, FlaskConicalIcon, SendIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import type { Broadcast } from '../types';
import { PaidPlanNote } from './paid-plan-note';
import { PreflightList } from './preflight-list';
import { SendDialog, type SendMode } from './send-dialog';
import { TestSendDialog } from './test-send-dialog';
import { useBroadcastPlan } from './use-broadcast-plan';
import { usePreflight } from './use-preflight';
import { MayCall } from '../../../components/may-call';

/**
 * The way out for a saved draft or scheduled broadcast: the pre-flight checks first, then a test
 * copy, a schedule or the send. Each acts on the saved version, so unsaved edits must be saved first.
 */
export function SendPanel({ broadcast, unsaved }: { broadcast: Broadcast; unsaved: boolean }) {
  const preflight = usePreflight(broadcast.id);
  const [testing, setTesting] = useState(false);
  const [sending, setSending] = useState<SendMode | null>(null);
  const scheduled = broadcast.status === 'scheduled';
  const plan = useBroadcastPlan();
  const unpaid = plan !== null && !plan.sends;
  const paidPlanNoteId = useId();

  return (
    <section aria-labelledby="send-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="send-panel">
      <h2 id="send-heading" className="text-base font-semibold text-slate-900">
        {scheduled ? 'Send' : 'Check and send'}
      </h2>
      <PreflightList query={preflight} />
      {unsaved && (
        <Alert tone="info" title="Unsaved changes">
          <span data-testid="send-unsaved">Save first: the checks, the test copy and the send use the saved version.</span>
        </Alert>
      )}
      {unpaid && <PaidPlanNote id={paidPlanNoteId} planLabel={plan.planLabel} />}
      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
        <MayCall procedure="broadcasts.test">
          <Button variant="secondary" onClick={() => setTesting(true)} disabled={unsaved}>
            <FlaskConicalIcon className="size-4" />
            Send test
          </Button>
        </MayCall>
        <MayCall procedure="broadcasts.send">
          <Button variant="secondary" onClick={() => setSending('schedule')} disabled={unsaved || unpaid} aria-describedby={unpaid ? paidPlanNoteId : undefined}>
            <CalendarClockIcon className="size-4" />
            {scheduled ? 'Reschedule' : 'Schedule'}
          </Button>
          <Button onClick={() => setSending('now')} disabled={unsaved || unpaid} aria-describedby={unpaid ? paidPlanNoteId : undefined}>
            <SendIcon className="size-4" />
            Send now
          </Button>
        </MayCall>
      </div>
      <TestSendDialog broadcastId={broadcast.id} open={testing} onClose={() => setTesting(false)} />
      {sending && <SendDialog broadcast={broadcast} mode={sending} preflight={preflight.data} onClose={() => setSending(null)} />}
    </section>
  );
}
