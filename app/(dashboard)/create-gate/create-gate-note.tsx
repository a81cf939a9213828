import Link from 'next/link';
import { SwitchToLiveButton } from '../../components/switch-to-live-button';
import { countOf, formatCount } from '../../lib/format';
import type { CreateGate } from './use-create-gate';

/** What the create button beside it needs: Live (with the switch), and room on the plan (with the way to more). */
export function CreateGateNote({ gate }: { gate: CreateGate }) {
  const { liveOnly, cap, roleRefusal } = gate;
  if (roleRefusal) {
    return (
      <div id={gate.noteId} className="max-w-72 text-xs">
        <p className="text-slate-500" data-testid="role-note">
          {roleRefusal}
        </p>
      </div>
    );
  }
  if (!liveOnly && !cap) return null;
  return (
    <div id={gate.noteId} className="max-w-72 space-y-1 text-xs">
      {liveOnly && (
        <p className="text-amber-800" data-testid="live-only-note">
          {liveOnly} <SwitchToLiveButton />
        </p>
      )}
      {cap && (
        <p className={cap.reached ? 'text-amber-800' : 'text-slate-500'} data-testid="cap-note" data-used={cap.used} data-limit={cap.limit} data-reached={cap.reached}>
          {formatCount(cap.used)} of {countOf(cap.limit, cap.noun)} on the {cap.planLabel} plan.{' '}
          <Link href="/billing" className="font-medium whitespace-nowrap text-indigo-600 underline hover:no-underline">
            {cap.reached ? 'Upgrade for more' : 'Compare plans'}
          </Link>
        </p>
      )}
    </div>
  );
}
