import type { ReactNode } from 'react';
import { CheckIcon, ChevronDownIcon } from 'lucide-react';
import { cx } from '../../components/cx';
import type { SetupStep } from './types';

/** One step of the checklist: its tick (or number), title and one line; what to do opens below. */
export function ChecklistStep({
  step,
  number,
  title,
  summary,
  done,
  expanded,
  onToggle,
  children,
}: {
  step: SetupStep;
  number: number;
  title: string;
  summary: ReactNode;
  done: boolean;
  expanded: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const panelId = `setup-step-${step}-panel`;
  return (
    <li data-testid="setup-step" data-step={step} data-done={done} className="border-t border-slate-100 first:border-t-0">
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        aria-controls={panelId}
        className="flex w-full items-start gap-3 px-5 py-3.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      >
        <span
          className={cx(
            'mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
            done ? 'bg-emerald-600 text-white' : 'bg-white text-slate-600 ring-1 ring-slate-300 ring-inset',
          )}
          data-testid="setup-step-mark"
        >
          {done ? <CheckIcon className="size-4" aria-label="Done" /> : number}
        </span>
        <span className="min-w-0 flex-1">
          <span className={cx('block text-sm font-medium', done ? 'text-slate-500' : 'text-slate-900')}>{title}</span>
          <span className="mt-0.5 block text-sm text-slate-500" data-testid="setup-step-summary">
            {summary}
          </span>
        </span>
        <ChevronDownIcon className={cx('mt-1 size-4 shrink-0 text-slate-400 transition-transform', expanded && 'rotate-180')} aria-hidden="true" />
      </button>
      {expanded && (
        <div id={panelId} className="px-5 pb-5 sm:pl-14">
          {children}
        </div>
      )}
    </li>
  );
}
