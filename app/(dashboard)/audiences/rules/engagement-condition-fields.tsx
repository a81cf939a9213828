import { ENGAGEMENT_ACTIVITIES } from '@/server/vocabulary/segment-rules';
import { SelectField, TextField } from '../../../components/field';
import { WITHIN_DAYS_MAX, type ConditionDraft } from './rule-draft';
import { ACTIVITIES } from './rule-words';

type EngagementDraft = ConditionDraft & { type: 'engagement' };

/** Did or did not, what (from the contact's engagement summary), and within how many days. */
export function EngagementConditionFields({ condition, onChange }: { condition: EngagementDraft; onChange: (next: ConditionDraft) => void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[8rem_1fr_9rem]">
      <SelectField label="The contact" value={condition.negate ? 'not' : 'did'} onChange={(event) => onChange({ ...condition, negate: event.target.value === 'not' })}>
        <option value="did">did</option>
        <option value="not">did not</option>
      </SelectField>
      <SelectField
        label="Activity"
        value={condition.activity}
        onChange={(event) => onChange({ ...condition, activity: ENGAGEMENT_ACTIVITIES.find((activity) => activity === event.target.value) ?? 'opened_or_clicked' })}
      >
        {(Object.keys(ACTIVITIES) as Array<keyof typeof ACTIVITIES>).map((activity) => (
          <option key={activity} value={activity}>
            {ACTIVITIES[activity].option}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Within (days)"
        type="number"
        inputMode="numeric"
        min={1}
        max={WITHIN_DAYS_MAX}
        step={1}
        value={condition.withinDays}
        onChange={(event) => onChange({ ...condition, withinDays: event.target.value })}
      />
    </div>
  );
}
