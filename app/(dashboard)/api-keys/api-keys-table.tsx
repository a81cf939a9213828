import type { ReactNode } from 'react';

const columns = ['Name', 'Token', 'Permission', 'Mode', 'Created', ''];

/** The table frame; rows come from the caller (real keys or skeletons). */
export function ApiKeysTable({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="API keys" aria-busy={busy || undefined}>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column, index) => (
              <th
                key={index}
                scope="col"
                className="px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase first:pl-5 last:pr-5"
              >
                {column || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
