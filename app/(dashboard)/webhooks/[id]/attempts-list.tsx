import type { Attempt } from '../types';
import { AttemptItem } from './attempt-item';

/** Every attempt of a delivery, newest first. */
export function AttemptsList({ attempts }: { attempts: Attempt[] }) {
  return (
    <section aria-label="Attempts" className="min-w-0">
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Attempts, newest first</h3>
      {attempts.length === 0 ? (
        <p className="text-sm text-slate-500">No attempt yet: the first one is on its way.</p>
      ) : (
        <ol className="space-y-2">
          {attempts.map((attempt) => (
            <AttemptItem key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      )}
    </section>
  );
}
