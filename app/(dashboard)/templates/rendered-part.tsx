import type { ReactNode } from 'react';

/** One rendered part of the preview, under its name. */
export function RenderedPart({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</h3>
      {children}
    </div>
  );
}
