import type { Inngest } from 'inngest';
import { dueEvent } from '@/inngest/client';
import type { Jobs } from './jobs';

/** Production wake-ups: an Inngest event per due row. A failed send is only a delay: the cron sweep finds the row. */
export function inngestJobs(client: Inngest.Any, log: (line: string) => void = (line) => console.error(line)): Jobs {
  return {
    wake(kind, id) {
      const ids = Array.isArray(id) ? id : [id];
      if (ids.length === 0) return;
      client.send(ids.map((one) => ({ name: dueEvent(kind), data: { id: one } }))).catch((error: unknown) => {
        log(`[jobs] could not send ${kind} events for ${ids.join(', ')}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
}
