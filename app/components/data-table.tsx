import type { ReactNode } from 'react';
import { cx } from './cx';

/**
 * A column title, a title aligned right over numbers, a name only screen readers hear (an actions
 * column), or a control (a select-all checkbox).
 */
export type Column = string | { numeric: string } | { srOnly: string } | { control: ReactNode };

/**
 * On a phone a table wider than the screen scrolls sideways inside its frame; a last column of
 * row actions (named for screen readers only) stays pinned to the frame's right edge meanwhile,
 * so every row's actions are on screen without scrolling.
 */
const PINNED_ACTIONS = cx(
  'max-sm:[&_td:last-child]:sticky max-sm:[&_td:last-child]:right-0 max-sm:[&_td:last-child]:bg-white',
  'max-sm:[&_th:last-child]:sticky max-sm:[&_th:last-child]:right-0 max-sm:[&_th:last-child]:bg-slate-50',
  'max-sm:[&_:is(td,th):last-child]:shadow-[-6px_0_6px_-6px_rgb(15_23_42/0.25)]',
);

/**
 * On a phone, rows that read as cards instead of columns: the header is dropped and each row
 * lays its own cells out (the DNS records, whose values and copy buttons need the width).
 */
const STACKED = 'max-sm:block max-sm:[&>tbody]:block max-sm:[&>thead]:hidden';

/** The frame every resource table shares; rows come from the caller (real rows or skeletons). */
export function DataTable({
  label,
  columns,
  busy = false,
  dense = false,
  stackOnPhones = false,
  children,
}: {
  label: string;
  columns: Column[];
  busy?: boolean;
  dense?: boolean;
  stackOnPhones?: boolean;
  children: ReactNode;
}) {
  const last = columns[columns.length - 1];
  const actionsLast = typeof last === 'object' && 'srOnly' in last;
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table
        className={cx('min-w-full divide-y divide-slate-200 text-sm', actionsLast && PINNED_ACTIONS, stackOnPhones && STACKED)}
        aria-label={label}
        aria-busy={busy || undefined}
      >
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
