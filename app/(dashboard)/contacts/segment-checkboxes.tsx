import Link from 'next/link';
import { CheckboxField } from '../../components/field';
import type { Audience } from '../audiences/types';

/** The segments (audiences) to put a new contact in, each ticked on its own. */
export function SegmentCheckboxes({ segments, chosen, onChange }: { segments: Audience[]; chosen: ReadonlySet<string>; onChange: (chosen: Set<string>) => void }) {
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset data-testid="segment-checkboxes">
      <legend className="text-sm font-medium text-slate-700">Segments</legend>
      <p className="mt-0.5 text-xs text-slate-500">The contact joins each one ticked, subscribed. Broadcasts go to a segment.</p>
      {segments.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">
          No segments yet.{' '}
          <Link href="/audiences" className="font-medium text-indigo-600 hover:underline">
            Create an audience
          </Link>{' '}
          to send broadcasts to.
        </p>
      ) : (
        <div className="mt-2 max-h-48 space-y-2 overflow-y-auto rounded-md border border-slate-200 p-3">
          {segments.map((segment) => (
            <CheckboxField key={segment.id} label={segment.name} checked={chosen.has(segment.id)} onChange={(event) => toggle(segment.id, event.target.checked)} />
          ))}
        </div>
      )}
    </fieldset>
  );
}
