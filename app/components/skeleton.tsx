import { cx } from './cx';

export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cx('block animate-pulse rounded bg-slate-200', className)} />;
}
