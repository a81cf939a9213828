import { SelectField } from '../../components/field';
import { SUPPRESSION_REASONS, SUPPRESSION_REASON_STYLE, isSuppressionReason, type SuppressionReason } from './reasons';

/** Which entries the table lists: all, or those of one reason. */
export function ReasonFilter({ value, onChange }: { value: SuppressionReason | undefined; onChange: (reason: SuppressionReason | undefined) => void }) {
  return (
    <SelectField label="Reason" name="reason" className="w-44" value={value ?? ''} onChange={(event) => onChange(isSuppressionReason(event.target.value) ? event.target.value : undefined)}>
      <option value="">All reasons</option>
      {SUPPRESSION_REASONS.map((reason) => (
        <option key={reason} value={reason}>
          {SUPPRESSION_REASON_STYLE[reason].label}
        </option>
      ))}
    </SelectField>
  );
}
