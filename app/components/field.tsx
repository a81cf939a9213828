import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cx } from './cx';

const controlClasses =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50';

function Label({ htmlFor, label, hint }: { htmlFor: string; label: string; hint?: ReactNode }) {
  return (
    <div className="mb-1.5 flex items-baseline justify-between gap-2">
      <label htmlFor={htmlFor} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {hint && <span className="text-xs text-slate-500">{hint}</span>}
    </div>
  );
}

export function TextField({ label, hint, className, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} />
      <input id={id} className={controlClasses} {...props} />
    </div>
  );
}

export function SelectField({
  label,
  hint,
  description,
  className,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: ReactNode; description?: ReactNode }) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} />
      <select id={id} className={cx(controlClasses, 'pr-8')} aria-describedby={description ? descriptionId : undefined} {...props}>
        {children}
      </select>
      {description && (
        <p id={descriptionId} className="mt-1.5 text-xs text-slate-500">
          {description}
        </p>
      )}
    </div>
  );
}
