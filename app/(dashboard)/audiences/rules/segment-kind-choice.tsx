import { RadioCards } from '../../../components/radio-cards';

export type SegmentKind = 'list' | 'rules';

const OPTIONS = [
  { value: 'list', label: 'A list', meaning: 'You add its contacts, one by one or from a CSV file.' },
  { value: 'rules', label: 'Defined by rules', meaning: 'Its contacts are those who match conditions on their properties and engagement.' },
] as const;

/** Whether the audience's contacts are added or chosen by rules; fixed once made (a list never gets rules, nor the reverse). */
export function SegmentKindChoice({ value, onChange }: { value: SegmentKind; onChange: (value: SegmentKind) => void }) {
  return <RadioCards legend="Contacts" name="segment_kind" options={OPTIONS} value={value} onChange={onChange} />;
}
