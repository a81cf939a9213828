import { cx } from '../../../components/cx';
import { useFieldsReadOnly } from '../../../components/read-only-fields';
import type { ContentSource } from './composer-values';

const OPTIONS: Array<{ value: ContentSource; label: string }> = [
  { value: 'html', label: 'Write the message' },
  { value: 'template', label: 'Use a template' },
];

/** Two choices as a segmented control (radio buttons underneath, so the keyboard and screen readers know them). */
export function ContentSourceToggle({ value, onChange }: { value: ContentSource; onChange: (value: ContentSource) => void }) {
  const readOnly = useFieldsReadOnly();
  return (
    <fieldset disabled={readOnly}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700">Content</legend>
      <div className="inline-flex rounded-lg bg-slate-100 p-1" data-testid="content-source">
        {OPTIONS.map((option) => (
          <label
            key={option.value}
            className={cx(
              readOnly ? 'cursor-default' : 'cursor-pointer',
              'rounded-md px-3 py-1.5 text-sm font-medium transition-colors has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
              value === option.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <input type="radio" name="content_source" value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} className="sr-only" />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
