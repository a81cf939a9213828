import type { Inngest } from 'inngest';
import { dueEvent } from '@/inngest/client';
import type { Jobs } from './jobs';

/** Production wake-ups: an Inngest event per due row. A failed send is only a delay: the cron sweep finds the row. */
export function inngestJobs(client: Inngest.Any, log: (line: string) => void = (line) => console.error(line)): Jobs {
  return {
    wake(kind, id) {
      client.send({ name: dueEvent(kind), data: { id } }).catch((error: unknown) => {
        log(`[jobs] could not send ${kind} event for ${id}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
}
