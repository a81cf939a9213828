'use client';

import { switchDashboardMode } from '../lib/dashboard-mode';
import { cx } from './cx';

/** The dashboard's switch, offered where test mode stopped something: the page reloads in Live, where it is. */
export function SwitchToLiveButton({ className }: { className?: string }) {
  return (
    <button type="button" onClick={() => switchDashboardMode('live')} className={cx('font-medium whitespace-nowrap underline hover:no-underline', className)}>
      Switch to Live
    </button>
  );
}
