'use client';

/** The table's header checkbox: every shown contact, some of them (indeterminate), or none. */
export function SelectAllCheckbox({ total, selected, onChange }: { total: number; selected: number; onChange: (all: boolean) => void }) {
  const all = total > 0 && selected === total;
  return (
    <input
      type="checkbox"
      aria-label="Select all shown contacts"
      className="size-4 rounded border-slate-300 align-middle accent-indigo-600"
      checked={all}
      disabled={total === 0}
      ref={(element) => {
        if (element) element.indeterminate = selected > 0 && !all;
      }}
      onChange={() => onChange(!all)}
    />
  );
}
