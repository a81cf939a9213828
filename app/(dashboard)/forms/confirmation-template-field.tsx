'use client';

import { TemplateSelect } from '../templates/template-select';
import type { Unusable } from '../templates/template-choices';

/** Why a template cannot write a confirmation mail, or null when it can (the server checks it again). */
const unusable: Unusable = (template) => {
  if (template.publishedAt === null) return 'never published';
  if (!template.variables.includes('confirmation_url')) return 'no {{ confirmation_url }}';
  return null;
};

/**
 * The template a double opt-in form's confirmation mail is written with; "Built-in text" (the
 * empty value) by default. Templates that cannot confirm anybody are listed, disabled, with the
 * reason, so the author sees why a template they expected is not offered.
 */
export function ConfirmationTemplateField({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  return (
    <TemplateSelect
      label="Confirmation email"
      value={value}
      onChange={onChange}
      loadErrorId="confirmation-template-load-error"
      unusable={unusable}
      unusableShown="disabled"
      noneChoice="Built-in text"
      unknownChoice="This form's template"
      description={
        <>
          The built-in text says who asks and holds the confirm button. A template of yours must show <code className="font-mono text-[12px]">{'{{ confirmation_url }}'}</code>; it may use{' '}
          <code className="font-mono text-[12px]">{'{{ name }}'}</code>, <code className="font-mono text-[12px]">{'{{ email }}'}</code>,{' '}
          <code className="font-mono text-[12px]">{'{{ organization }}'}</code> and <code className="font-mono text-[12px]">{'{{ expires_in_days }}'}</code>.
        </>
      }
    />
  );
}
