import { CheckboxField, SelectField } from '../../../../components/field';
import type { ColumnMapping as Mapping } from './contact-rows';

export interface ColumnChoice {
  index: number;
  title: string;
  /** The column's first value, to tell columns apart. */
  sample: string;
}

const FIELD_LABELS: Record<keyof Mapping, { label: string; description: string }> = {
  email: { label: 'Email column', description: 'Required.' },
  name: { label: 'Name column', description: 'Optional. An empty cell keeps the name a contact has.' },
  subscribed: { label: 'Subscribed column', description: 'Optional: yes/no, true/false or 1/0. Empty means subscribed for a new contact.' },
};

const optionLabel = (column: ColumnChoice) => (column.sample ? `${column.title} (${column.sample.length > 24 ? `${column.sample.slice(0, 23)}…` : column.sample})` : column.title);

/** Which column holds the address, the name and the subscription; guessed from the header, changeable. */
export function ColumnMapping({
  columns,
  mapping,
  onChange,
  hasHeader,
  onHeaderChange,
}: {
  columns: ColumnChoice[];
  mapping: Mapping;
  onChange: (mapping: Mapping) => void;
  hasHeader: boolean;
  onHeaderChange: (hasHeader: boolean) => void;
}) {
  return (
    <fieldset className="space-y-4" data-testid="column-mapping">
      <legend className="sr-only">Columns</legend>
      <CheckboxField label="The first row is a header" checked={hasHeader} onChange={(event) => onHeaderChange(event.target.checked)} description="Column titles, not a contact." />
      <div className="grid gap-4 sm:grid-cols-3">
        {(Object.keys(FIELD_LABELS) as Array<keyof Mapping>).map((field) => (
          <SelectField
            key={field}
            label={FIELD_LABELS[field].label}
            name={`column-${field}`}
            description={FIELD_LABELS[field].description}
            value={mapping[field] ?? ''}
            onChange={(event) => onChange({ ...mapping, [field]: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">{field === 'email' ? 'Choose a column' : 'None'}</option>
            {columns.map((column) => (
              <option key={column.index} value={column.index}>
                {optionLabel(column)}
              </option>
            ))}
          </SelectField>
        ))}
      </div>
    </fieldset>
  );
}
