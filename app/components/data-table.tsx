import type { ReactNode } from 'react';

/**
 * A column title, a title aligned right over numbers, a name only screen readers hear (an actions
 * column), or a control (a select-all checkbox).
 */
export type Column = string | { numeric: string } | { srOnly: string } | { control: ReactNode };

/** The frame every resource table shares; rows come from the caller (real rows or skeletons). */
export function DataTable({ label, columns, busy = false, dense = false, children }: { label: string; columns: Column[]; busy?: boolean; dense?: boolean; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label={label} aria-busy={busy || undefined}>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column, index) => (
              <th
                key={index}
                scope="col"
                className={`${dense ? 'px-3' : 'px-4'} py-3 ${typeof column === 'object' && 'numeric' in column ? 'text-right' : 'text-left'} text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase first:pl-5 last:pr-5`}
              >
                {typeof column === 'string' ? column : 'numeric' in column ? column.numeric : 'srOnly' in column ? <span className="sr-only">{column.srOnly}</span> : column.control}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
