import type { ReactNode } from 'react';

/** One labelled value of a description list; the test id names the value. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
