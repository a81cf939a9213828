import { SelectField } from '../../../components/field';
import { PropertyValueInput } from '../../contacts/property-value-input';
import { typeLabel } from '../../contacts/property-values';
import type { ContactProperty } from '../../contacts/types';
import { withKey, type ConditionDraft } from './rule-draft';
import { operatorsFor, operatorWords, takesValue } from './rule-words';

type PropertyDraft = ConditionDraft & { type: 'property' };

/** A property, how it compares (what its type allows), and the value, of the property's type. */
export function PropertyConditionFields({ condition, properties, onChange }: { condition: PropertyDraft; properties: ContactProperty[]; onChange: (next: ConditionDraft) => void }) {
  const type = properties.find((property) => property.key === condition.key)?.type ?? 'string';
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <SelectField label="Property" value={condition.key} onChange={(event) => onChange(withKey(condition, event.target.value, properties))}>
        {!properties.some((property) => property.key === condition.key) && (
          <option value={condition.key} disabled>
            {condition.key ? `${condition.key} (deleted)` : 'Choose a property'}
          </option>
        )}
        {properties.map((property) => (
          <option key={property.id} value={property.key}>
            {property.key} ({typeLabel(property.type).toLowerCase()})
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Comparison"
        value={condition.operator}
        onChange={(event) => onChange({ ...condition, operator: operatorsFor(type).find((operator) => operator === event.target.value) ?? 'equals' })}
      >
        {operatorsFor(type).map((operator) => (
          <option key={operator} value={operator}>
            {operatorWords(operator, type)}
          </option>
        ))}
      </SelectField>
      {takesValue(condition.operator) && (
        <PropertyValueInput key={`${condition.key}-${type}`} type={type} label="Value" name="value" value={condition.value} onChange={(value) => onChange({ ...condition, value })} />
      )}
    </div>
  );
}
