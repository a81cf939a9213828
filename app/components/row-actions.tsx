import type { ReactNode } from 'react';
import { PencilIcon, Trash2Icon } from 'lucide-react';
import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { cx } from './cx';
import { MayCall } from './may-call';

/** The last cell of a table row: its actions, right-aligned. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <td className="py-3 pr-5 pl-4">
      <div className="flex items-center justify-end gap-1">{children}</div>
    </td>
  );
}

const KINDS = {
  edit: { icon: PencilIcon, tone: 'hover:bg-slate-100 hover:text-slate-700' },
  delete: { icon: Trash2Icon, tone: 'hover:bg-red-50 hover:text-red-600' },
} as const;

/**
 * One icon button of a row, shown only to a role that may call `procedure`. `label` names the
 * action and its row for assistive technology ("Delete plan"); `title` is the hover hint.
 */
export function RowAction({ procedure, kind, label, title, onClick }: { procedure: DashboardProcedure; kind: keyof typeof KINDS; label: string; title: string; onClick: () => void }) {
  const { icon: Icon, tone } = KINDS[kind];
  return (
    <MayCall procedure={procedure}>
      <button type="button" onClick={onClick} aria-label={label} title={title} className={cx('inline-flex rounded-md p-1 text-slate-400', tone)}>
        <Icon className="size-4" />
      </button>
    </MayCall>
  );
}
