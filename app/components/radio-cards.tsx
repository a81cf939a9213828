import type { ReactNode } from 'react';
import { cx } from './cx';

/** A choice between a few options shown as cards side by side, each with what it means; `value` null while none is chosen. */
export function RadioCards<Value extends string>({
  legend,
  description,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  description?: ReactNode;
  name: string;
  options: ReadonlyArray<{ value: Value; label: string; meaning: string }>;
  value: Value | null;
  onChange: (value: Value) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {description && <p className="mt-0.5 text-xs text-slate-500">{description}</p>}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(
              'flex cursor-pointer gap-3 rounded-lg border p-3 text-sm',
              value === option.value ? 'border-indigo-600 bg-indigo-50/60 ring-1 ring-indigo-600' : 'border-slate-200 hover:bg-slate-50',
            )}
          >
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} className="mt-0.5 size-4 shrink-0 accent-indigo-600" />
            <span>
              <span className="block font-medium text-slate-900">{option.label}</span>
              <span className="mt-0.5 block text-xs text-slate-500">{option.meaning}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
