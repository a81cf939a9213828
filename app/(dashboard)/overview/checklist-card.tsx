'use client';

import { useState, type ReactNode } from 'react';
import { ChecklistStep } from './checklist-step';
import { AddDomainStep, PublishRecordsStep, VerifyStep } from './domain-steps';
import { CreateKeyStep, SendStep } from './key-and-send-steps';
import type { Checklist, SetupStep } from './types';

interface StepView {
  step: SetupStep;
  title: string;
  /** One line under the title: what the step is, or once done what it found. */
  summary: (checklist: Checklist) => ReactNode;
  Body: (props: { checklist: Checklist }) => ReactNode;
}

const listed = (records: string[]) => records.join(', ');

const STEPS: StepView[] = [
  {
    step: 'domain',
    title: 'Add a domain',
    summary: ({ domain }) => (domain ? `${domain.name} added` : 'The domain your email comes from.'),
    Body: AddDomainStep,
  },
  {
    step: 'records',
    title: 'Publish its DNS records',
    summary: ({ domain, steps }) =>
      steps.records
        ? 'DKIM, MX and SPF found in your DNS'
        : domain && domain.recordsFound.length > 0
          ? `Found ${listed(domain.recordsFound)}; waiting for ${listed(domain.recordsMissing)}`
          : 'DKIM, MX and SPF at your DNS provider, copied or set up in one click.',
    Body: PublishRecordsStep,
  },
  {
    step: 'verified',
    title: 'Get the domain verified',
    summary: ({ domain, steps }) => (steps.verified && domain ? `${domain.name} is verified` : 'We check your DNS until the records are there.'),
    Body: VerifyStep,
  },
  {
    step: 'api_key',
    title: 'Create an API key',
    summary: ({ key }) => (key ? `“${key.name}” (${key.tokenStart}…)` : 'A live key sends real email; a test key only pretends to.'),
    Body: CreateKeyStep,
  },
  {
    step: 'email',
    title: 'Send your first email',
    summary: ({ email }) => (email ? 'Your first email is in' : 'A copy-paste request with your key and this service’s address.'),
    Body: SendStep,
  },
];

/** The getting-started steps; each ticks by itself as the organization's rows show it done. */
export function ChecklistCard({ checklist, onHide }: { checklist: Checklist; onHide?: () => void }) {
  const firstOpen = STEPS.find(({ step }) => !checklist.steps[step])?.step ?? null;
  // null: follow the first open step as steps tick; 'none': the person closed every step.
  const [chosen, setChosen] = useState<SetupStep | 'none' | null>(null);
  // A step opened by hand that then gets done hands over to the next open one.
  const [wasDone, setWasDone] = useState(checklist.steps);
  if (wasDone !== checklist.steps) {
    setWasDone(checklist.steps);
    if (chosen !== null && chosen !== 'none' && checklist.steps[chosen] && !wasDone[chosen]) setChosen(null);
  }
  const expanded = chosen === null ? firstOpen : chosen === 'none' ? null : chosen;
  const doneCount = STEPS.filter(({ step }) => checklist.steps[step]).length;

  return (
    <section aria-labelledby="setup-heading" data-testid="setup-checklist" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 px-5 pt-5 pb-4">
        <div>
          <h2 id="setup-heading" className="text-base font-semibold text-slate-900">
            Get started
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">Each step ticks by itself as it happens.</p>
        </div>
        <div className="flex items-center gap-3">
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <span data-testid="setup-progress">
              {doneCount} of {STEPS.length} done
            </span>
            <div className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
              <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-300" style={{ width: `${(doneCount / STEPS.length) * 100}%` }} />
            </div>
          </div>
          {onHide && (
            <button type="button" onClick={onHide} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
              Hide steps
            </button>
          )}
        </div>
      </div>
      <ol className="border-t border-slate-200">
        {STEPS.map(({ step, title, summary, Body }, index) => (
          <ChecklistStep
            key={step}
            step={step}
            number={index + 1}
            title={title}
            summary={summary(checklist)}
            done={checklist.steps[step]}
            expanded={expanded === step}
            onToggle={() => setChosen(expanded === step ? 'none' : step)}
          >
            <Body checklist={checklist} />
          </ChecklistStep>
        ))}
      </ol>
    </section>
  );
}
