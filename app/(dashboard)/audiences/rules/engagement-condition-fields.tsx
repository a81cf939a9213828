import type { EngagementActivity } from '@/server/vocabulary/segment-rules';
import { ChoiceSelect, type Choice } from '../../../components/choice-select';
import { TextField } from '../../../components/field';
import { WITHIN_DAYS_MAX, type ConditionDraft } from './rule-draft';
import { ACTIVITIES } from './rule-words';

type EngagementDraft = ConditionDraft & { type: 'engagement' };

const DID: Choice<'did' | 'not'>[] = [
  { value: 'did', label: 'did' },
  { value: 'not', label: 'did not' },
];

const ACTIVITY_CHOICES = (Object.keys(ACTIVITIES) as EngagementActivity[]).map((activity) => ({ value: activity, label: ACTIVITIES[activity].option }));

/** Did or did not, what (from the contact's engagement summary), and within how many days. */
export function EngagementConditionFields({ condition, onChange }: { condition: EngagementDraft; onChange: (next: ConditionDraft) => void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[8rem_1fr_9rem]">
      <ChoiceSelect label="The contact" choices={DID} value={condition.negate ? 'not' : 'did'} onChange={(did) => onChange({ ...condition, negate: did === 'not' })} />
      <ChoiceSelect label="Activity" choices={ACTIVITY_CHOICES} value={condition.activity} onChange={(activity) => onChange({ ...condition, activity })} />
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
