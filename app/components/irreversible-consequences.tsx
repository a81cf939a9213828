import type { ReactNode } from 'react';

/** What a deletion changes, one consequence a list item, then that it cannot be undone. */
export function IrreversibleConsequences({ children }: { children: ReactNode }) {
  return (
    <>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">{children}</ul>
      <p className="text-sm font-medium text-slate-700">This cannot be undone.</p>
    </>
  );
}
