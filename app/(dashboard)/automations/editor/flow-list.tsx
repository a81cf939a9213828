'use client';

import { CornerDownRightIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { Badge } from '../../../components/badge';
import { formatCount } from '../../../lib/format';
import { ADDABLE_TYPES, STEP_KINDS } from '../step-kinds';
import { BRANCH_LABELS, BRANCHES, canInsertAt, insertStep, newKey, removeStep, updateConfig, type Flow, type FlowPath } from '../flow';
import type { StepType } from '../types';
import { StepConfigForm } from './step-config-form';

export interface FlowContext {
  /** The whole flow: every change makes a new one. */
  flow: Flow;
  onChange: (flow: Flow) => void;
  /** The server's refusal, by the step it names. */
  errors: Record<string, string>;
  /** Running runs waiting at each step (the figures), by step key. */
  waiting: Record<string, number>;
  readOnly: boolean;
}

/** Where a new step goes: a select whose choice is the type added. */
function AddStep({ context, path, index }: { context: FlowContext; path: FlowPath; index: number }) {
  const at = [...path.map(([entry, branch]) => `${entry}.${branch}`), String(index)].join('/');
  return (
    <div className="flex items-center gap-2 py-1 pl-4">
      <PlusIcon className="size-4 text-slate-400" aria-hidden />
      <select
        aria-label="Add a step here"
        data-testid="add-step"
        data-at={at}
        value=""
        className="rounded-md border-0 bg-transparent py-1 pr-7 pl-1 text-sm text-slate-500 ring-1 ring-slate-200 hover:text-slate-800 hover:ring-slate-300"
        onChange={(event) => {
          const type = event.target.value as StepType;
          if (!type) return;
          context.onChange(insertStep(context.flow, path, index, { key: newKey(type, context.flow), type, config: STEP_KINDS[type].initial() }));
        }}
      >
        <option value="">Add a step…</option>
        {ADDABLE_TYPES.map((type) => (
          <option key={type} value={type}>
            {STEP_KINDS[type].label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One list of the flow (the main one, or a branch), top to bottom, with a way to add a step wherever one may go. */
export function FlowList({ context, list, path }: { context: FlowContext; list: Flow; path: FlowPath }) {
  const root = path.length === 0;
  const adder = (index: number) => !context.readOnly && canInsertAt(list, index, root) && <AddStep context={context} path={path} index={index} />;
  return (
    <ol className="space-y-1">
      {list.map((entry, index) => (
        <li key={entry.kind === 'goto' ? `goto-${entry.key}` : entry.step.key} className="space-y-1">
          {index > 0 && adder(index)}
          {entry.kind === 'goto' ? (
            <p className="flex items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-2 text-sm text-slate-600" data-testid="step-goto">
              <CornerDownRightIcon className="size-4" />
              Continues at <code className="font-mono text-xs">{entry.key}</code>
            </p>
          ) : (
            <>
              <StepCard context={context} path={path} index={index} entry={entry} root={root} />
              {entry.branches && (
                <div className="space-y-3 pt-1 pl-6">
                  {entry.branches.map((branch, which) => {
                    const way = BRANCHES[entry.step.type]![which as 0 | 1];
                    return (
                    <section key={which} className="border-l-2 border-indigo-100 pl-4" data-testid="step-branch" data-branch={way}>
                      <h4 className="mb-1 text-xs font-semibold tracking-wide text-indigo-700 uppercase">{BRANCH_LABELS[way]}</h4>
                      <FlowList context={context} list={branch} path={[...path, [index, which as 0 | 1]]} />
                      {branch.length === 0 && <p className="pl-4 text-xs text-slate-500">The run ends here.</p>}
                    </section>
                    );
                  })}
                </div>
              )}
            </>
          )}
        </li>
      ))}
      {!context.readOnly && canInsertAt(list, list.length, root) && (
        <li>
          <AddStep context={context} path={path} index={list.length} />
        </li>
      )}
    </ol>
  );
}

function StepCard({ context, path, index, entry, root }: { context: FlowContext; path: FlowPath; index: number; entry: Extract<Flow[number], { kind: 'step' }>; root: boolean }) {
  const { step } = entry;
  const kind = STEP_KINDS[step.type];
  const error = context.errors[step.key];
  const waiting = context.waiting[step.key] ?? 0;
  const removable = !context.readOnly && !(root && index === 0);
  return (
    <article
      className={`rounded-xl border bg-white shadow-sm ${error ? 'border-red-300' : 'border-slate-200'}`}
      data-testid="step-card"
      data-step-key={step.key}
      data-step-type={step.type}
      aria-label={`${kind.label} step ${step.key}`}
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2.5">
        <span className="text-sm font-semibold text-slate-900">{kind.label}</span>
        <code className="font-mono text-xs text-slate-500">{step.key}</code>
        <span className="hidden text-xs text-slate-400 sm:inline">{kind.description}</span>
        <span className="ml-auto flex items-center gap-2">
          {waiting > 0 && (
            <span data-testid="step-waiting">
              <Badge tone="blue">{formatCount(waiting)} waiting here</Badge>
            </span>
          )}
          {removable && (
            <button
              type="button"
              aria-label={`Remove ${step.key}`}
              title={entry.branches ? 'Remove the step: its first branch takes its place, the other branch goes' : 'Remove the step'}
              className="rounded-md p-1 text-slate-400 hover:bg-red-50 hover:text-red-600"
              onClick={() => context.onChange(removeStep(context.flow, path, index))}
            >
              <Trash2Icon className="size-4" />
            </button>
          )}
        </span>
      </header>
      <div className="px-4 py-3">
        <fieldset disabled={context.readOnly} className="contents">
          <StepConfigForm type={step.type} stepKey={step.key} config={step.config} onChange={(config) => context.onChange(updateConfig(context.flow, path, index, config))} />
        </fieldset>
        {error && (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="step-error">
            {error}
          </p>
        )}
      </div>
    </article>
  );
}
