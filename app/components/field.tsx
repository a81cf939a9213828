import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cx } from './cx';
import { useFieldsReadOnly } from './read-only-fields';

const controlClasses =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 read-only:bg-slate-50';

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

/** The server's complaint about one field, under it and read with it. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1.5 text-xs text-red-700" data-testid="field-error">
      {children}
    </p>
  );
}

export function TextField({
  label,
  hint,
  description,
  error,
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; description?: ReactNode; error?: ReactNode }) {
  const readOnly = useFieldsReadOnly() || props.readOnly;
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description && descriptionId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} />
      <input
        id={id}
        className={cx(controlClasses, Boolean(error) && 'ring-red-400! focus:ring-red-600!')}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        {...props}
        readOnly={readOnly}
      />
      {description && (
        <p id={descriptionId} className="mt-1.5 text-xs text-slate-500">
          {description}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

/** A multi-line field (`mono` for code: HTML, JSON), with its description and the server's complaint under it. */
export function TextareaField({
  label,
  hint,
  description,
  error,
  mono = false,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: ReactNode; description?: ReactNode; error?: ReactNode; mono?: boolean }) {
  const readOnly = useFieldsReadOnly() || props.readOnly;
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description && descriptionId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} />
      <textarea
        id={id}
        className={cx(controlClasses, 'resize-y', mono && 'font-mono text-[13px] leading-5', Boolean(error) && 'ring-red-400! focus:ring-red-600!')}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        {...props}
        readOnly={readOnly}
      />
      {description && (
        <p id={descriptionId} className="mt-1.5 text-xs text-slate-500">
          {description}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export function SelectField({
  label,
  hint,
  description,
  error,
  className,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: ReactNode; description?: ReactNode; error?: ReactNode }) {
  const disabled = useFieldsReadOnly() || props.disabled;
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description && descriptionId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id} label={label} hint={hint} />
      <select
        id={id}
        className={cx(controlClasses, 'pr-8', Boolean(error) && 'ring-red-400! focus:ring-red-600!')}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        {...props}
        disabled={disabled}
      >
        {children}
      </select>
      {description && (
        <p id={descriptionId} className="mt-1.5 text-xs text-slate-500">
          {description}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export function CheckboxField({ label, description, className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string; description?: ReactNode }) {
  const disabled = useFieldsReadOnly() || props.disabled;
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className={cx('flex gap-3', className)}>
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
        aria-describedby={description ? descriptionId : undefined}
        {...props}
        disabled={disabled}
      />
      <div className="text-sm">
        <label htmlFor={id} className="font-medium text-slate-700">
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="mt-0.5 text-xs text-slate-500">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
