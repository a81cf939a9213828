import type { Inngest } from 'inngest';
import { dueEvent } from '@/inngest/client';
import type { Log } from '../log';
import type { Jobs } from './jobs';

/** Production wake-ups: an Inngest event per due row (or one for the kind's sweep). A failed send is only a delay: the cron sweep finds the row. */
export function inngestJobs(client: Inngest.Any, log: Log): Jobs {
  return {
    wake(kind, id, scope) {
      const ids = Array.isArray(id) ? id : [id];
      // No id: something of this kind is due, and its sweep finds what.
      const events = ids.length === 0 ? [{ name: dueEvent(kind), data: {} }] : ids.map((one) => ({ name: dueEvent(kind), data: { id: one, ...scope } }));
      client.send(events).catch((error: unknown) => {
        log.warn({ kind, ids, err: error }, 'could not send the due events; the cron sweep will find the rows');
      });
    },
  };
}
