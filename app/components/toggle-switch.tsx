import { cx } from './cx';
import { Spinner } from './spinner';

/** An on/off switch (`role="switch"`), named by `label`; `pending` while the change is saved. */
export function ToggleSwitch({
  label,
  checked,
  onChange,
  disabled = false,
  pending = false,
  describedBy,
}: {
  label: string;
  checked: boolean;
  onChange: (next: boolean) => void;
  disabled?: boolean;
  pending?: boolean;
  describedBy?: string;
}) {
  return (
    <span className="inline-flex items-center gap-2">
      {pending && <Spinner className="size-4 text-slate-400" />}
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        aria-describedby={describedBy}
        aria-busy={pending || undefined}
        disabled={disabled || pending}
        onClick={() => onChange(!checked)}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          checked ? 'bg-indigo-600' : 'bg-slate-300',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
      >
        <span className={cx('inline-block size-5 rounded-full bg-white shadow ring-0 transition-transform', checked ? 'translate-x-5.5' : 'translate-x-0.5')} />
      </button>
    </span>
  );
}
