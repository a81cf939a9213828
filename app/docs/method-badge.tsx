import { cx } from '../components/cx';
import type { HttpMethod } from './openapi';

const tones: Record<HttpMethod, string> = {
  get: 'bg-sky-50 text-sky-700 ring-sky-600/20',
  post: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  put: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  patch: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  delete: 'bg-red-50 text-red-700 ring-red-600/20',
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <span className={cx('inline-flex w-16 shrink-0 justify-center rounded-md py-0.5 font-mono text-xs font-semibold uppercase ring-1 ring-inset', tones[method])}>
      {method}
    </span>
  );
}
