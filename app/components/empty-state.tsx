import type { ReactNode } from 'react';

/** The page body when there is nothing to show yet. */
export function EmptyState({ icon, title, children, action, testId }: { icon: ReactNode; title: string; children?: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">{icon}</div>
      <h2 className="mt-4 text-base font-semibold text-slate-900">{title}</h2>
      {children && <div className="mt-1.5 max-w-md text-sm text-slate-500">{children}</div>}
      {action && <div className="mt-6">{action}</div>}
    </div>
  );
}
