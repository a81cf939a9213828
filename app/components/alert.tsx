import type { ReactNode } from 'react';
import { cx } from './cx';
import { TriangleAlertIcon } from 'lucide-react';

type Tone = 'error' | 'warning' | 'info';

const tones: Record<Tone, string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  info: 'border-sky-200 bg-sky-50 text-sky-900',
};

/** A message box; errors are announced to screen readers as alerts. `icon` replaces the warning sign (news that is no warning). */
export function Alert({ tone = 'error', title, children, action, className, icon }: { tone?: Tone; title?: string; children?: ReactNode; action?: ReactNode; className?: string; icon?: ReactNode }) {
  return (
    <div role={tone === 'info' ? 'status' : 'alert'} className={cx('flex gap-3 rounded-lg border p-3 text-sm', tones[tone], className)}>
      {icon ?? <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />}
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={cx(title && 'mt-0.5')}>{children}</div>}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}
