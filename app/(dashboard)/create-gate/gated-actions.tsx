import type { ReactNode } from 'react';
import { cx } from '../../components/cx';
import { CreateGateNote } from './create-gate-note';
import type { CreateGate } from './use-create-gate';

/**
 * Create buttons with their gate's note under them: at the end of a page header (at the start on a
 * narrow screen, where the header stacks), or centred in an empty state.
 */
export function GatedActions({ gate, align = 'end', children }: { gate: CreateGate; align?: 'end' | 'center'; children: ReactNode }) {
  return (
    <div className={cx('flex flex-col gap-2', align === 'center' ? 'items-center text-center' : 'items-start text-left sm:items-end sm:text-right')}>
      <div className={cx('flex flex-wrap gap-2', align === 'center' && 'justify-center')}>{children}</div>
      <CreateGateNote gate={gate} />
    </div>
  );
}
