import type { ComponentProps } from 'react';
import { SelectField } from './field';

export interface Choice<Value extends string> {
  value: Value;
  label: string;
}

/** The choices of a record of labels, in its order. */
export const choicesOf = <Value extends string>(labels: Record<Value, string>): Choice<Value>[] =>
  (Object.keys(labels) as Value[]).map((value) => ({ value, label: labels[value] }));

/** A select among a fixed few values, each shown by its label; `onChange` is given only one of them. */
export function ChoiceSelect<Value extends string>({
  choices,
  value,
  onChange,
  ...field
}: Omit<ComponentProps<typeof SelectField>, 'value' | 'onChange' | 'children'> & {
  choices: ReadonlyArray<Choice<Value>>;
  value: Value;
  onChange: (value: Value) => void;
}) {
  return (
    <SelectField
      {...field}
      value={value}
      onChange={(event) => {
        const chosen = choices.find((choice) => choice.value === event.target.value);
        if (chosen) onChange(chosen.value);
      }}
    >
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}
