import type { ReactNode } from 'react';
import { cx } from '../../components/cx';

/** One card of the settings page: a heading, what it is for, and its controls. */
export function SettingsSection({ id, title, description, children, danger = false, testId }: { id: string; title: string; description: ReactNode; children?: ReactNode; danger?: boolean; testId: string }) {
  return (
    <section aria-labelledby={`${id}-heading`} data-testid={testId} className={cx('rounded-xl border bg-white p-5 shadow-sm', danger ? 'border-red-200' : 'border-slate-200')}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-1 text-sm text-slate-500">{description}</div>
      {children && <div className="mt-4 space-y-3">{children}</div>}
    </section>
  );
}
