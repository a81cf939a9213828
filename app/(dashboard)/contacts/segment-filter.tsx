import { SelectField } from '../../components/field';
import type { Audience } from '../audiences/types';

/** All contacts, or those in one segment (an audience). */
export function SegmentFilter({ segments, value, onChange }: { segments: Audience[]; value: string; onChange: (segmentId: string) => void }) {
  return (
    <SelectField label="Segment" name="segment" className="w-full sm:w-56" value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">All contacts</option>
      {segments.map((segment) => (
        <option key={segment.id} value={segment.id}>
          {segment.name}
        </option>
      ))}
    </SelectField>
  );
}
