import { CheckboxField, SelectField } from '../../../../components/field';
import type { ColumnMapping as Mapping } from './contact-rows';
import type { SubscriptionColumn } from './subscription-cell';

export interface ColumnChoice {
  index: number;
  title: string;
  /** The column's first value, to tell columns apart. */
  sample: string;
}

type ColumnField = Exclude<keyof Mapping, 'subscriptionColumn'>;

const FIELD_LABELS: Record<ColumnField, { label: string; description: string }> = {
  email: { label: 'Email column', description: 'Required.' },
  name: { label: 'Name column', description: 'Optional: the whole name. An empty cell keeps the name a contact has.' },
  subscription: {
    label: 'Subscription column',
    description: 'Optional: yes/no, true/false, 1/0 or subscribed/unsubscribed. Empty means subscribed for a new contact.',
  },
  firstName: { label: 'First name column', description: 'Optional: joined with the last name where the name column is empty or not chosen.' },
  lastName: { label: 'Last name column', description: 'Optional: joined after the first name.' },
};

/** In the order of the form: the address, the name and the subscription; then the name's two halves. */
const FIELDS: ColumnField[] = ['email', 'name', 'subscription', 'firstName', 'lastName'];

const SUBSCRIPTION_COLUMNS: Record<SubscriptionColumn, string> = {
  subscribed: 'Who is subscribed',
  unsubscribed: 'Who unsubscribed',
};

const optionLabel = (column: ColumnChoice) => (column.sample ? `${column.title} (${column.sample.length > 24 ? `${column.sample.slice(0, 23)}…` : column.sample})` : column.title);

/**
 * Which column holds the address, the name (whole, or first and last) and the subscription, and
 * whether that column lists the subscribed or the unsubscribed; guessed from the header, changeable.
 */
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
        {FIELDS.map((field) => (
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
        {mapping.subscription !== null && (
          <SelectField
            label="The subscription column lists"
            name="subscription-column"
            description="A contact who unsubscribed stays unsubscribed whatever the file says: an import can opt people out, never back in."
            value={mapping.subscriptionColumn}
            onChange={(event) => onChange({ ...mapping, subscriptionColumn: event.target.value as SubscriptionColumn })}
          >
            {(Object.keys(SUBSCRIPTION_COLUMNS) as SubscriptionColumn[]).map((value) => (
              <option key={value} value={value}>
                {SUBSCRIPTION_COLUMNS[value]}
              </option>
            ))}
          </SelectField>
        )}
      </div>
    </fieldset>
  );
}
