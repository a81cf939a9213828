import { CALLER_REASONS, SUPPRESSION_REASON_STYLE, type CallerReason } from './reasons';

/** The reason a person may give: manual or unsubscribe (bounces and complaints are recorded by the service). */
export function CallerReasonField({ value, onChange, disabled = false }: { value: CallerReason; onChange: (reason: CallerReason) => void; disabled?: boolean }) {
  return (
    <fieldset disabled={disabled}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700">Reason</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {CALLER_REASONS.map((reason) => (
          <label
            key={reason}
            className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-3 text-sm has-checked:border-indigo-600 has-checked:bg-indigo-50/50 has-checked:ring-1 has-checked:ring-indigo-600"
          >
            <input
              type="radio"
              name="reason"
              value={reason}
              checked={value === reason}
              onChange={() => onChange(reason)}
              className="mt-0.5 size-4 shrink-0 accent-indigo-600"
            />
            <span>
              <span className="block font-medium text-slate-900">{SUPPRESSION_REASON_STYLE[reason].label}</span>
              <span className="mt-0.5 block text-xs text-slate-500">{SUPPRESSION_REASON_STYLE[reason].description}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
