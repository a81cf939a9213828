'use client';

import type { FormEvent, ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { ReadOnlyFields } from '../../components/read-only-fields';
import { TextareaField, TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { TEMPLATE_FIELDS, type TemplateValues } from './template-values';

/** The id the editor's Save button names with `form=`, as it sits in the header, outside the form. */
export const TEMPLATE_FORM_ID = 'template-form';

/**
 * The template's name, subject and bodies, as Liquid source. The server parses them on save; its
 * complaint about each part (`html: line 3: tag {% if vip %} not closed`) shows under that field.
 */
export function TemplateForm({
  values,
  onChange,
  onSubmit,
  error,
  errorTitle,
  readOnly = false,
  footer,
}: {
  values: TemplateValues;
  onChange: (values: TemplateValues) => void;
  onSubmit: () => void;
  error: unknown;
  errorTitle: string;
  /** The reader may not save it (their role): every field shows its value without taking input. */
  readOnly?: boolean;
  footer?: ReactNode;
}) {
  const { byField, other } = fieldErrors(error, TEMPLATE_FIELDS);
  const set = (field: keyof TemplateValues) => (event: { target: { value: string } }) => onChange({ ...values, [field]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!readOnly) onSubmit();
  };

  return (
    <form id={TEMPLATE_FORM_ID} onSubmit={submit} className="space-y-5" data-testid="template-form" noValidate>
      <ReadOnlyFields.Provider value={readOnly}>
        <TextField
          label="Name"
          name="name"
          placeholder="Welcome email"
          required
          maxLength={255}
          autoComplete="off"
          value={values.name}
          onChange={set('name')}
          description="For you and your team; recipients never see it."
          error={byField.name}
        />
        <TextField
          label="Subject"
          name="subject"
          placeholder={'Welcome, {{ name | default: "there" }}'}
          required
          maxLength={998}
          autoComplete="off"
          spellCheck={false}
          className="[&_input]:font-mono [&_input]:text-[13px]"
          value={values.subject}
          onChange={set('subject')}
          error={byField.subject}
        />
        <TextareaField
          label="HTML"
          name="html"
          hint="Variables are HTML-escaped"
          mono
          rows={16}
          spellCheck={false}
          placeholder={'<h1>Hello {{ name | default: "there" }}</h1>\n<p>Thanks for joining {{ company }}.</p>'}
          value={values.html}
          onChange={set('html')}
          error={byField.html}
        />
        <TextareaField
          label="Text"
          name="text"
          hint="Plain-text version"
          mono
          rows={7}
          spellCheck={false}
          placeholder={'Hello {{ name | default: "there" }},\n\nThanks for joining {{ company }}.'}
          value={values.text}
          onChange={set('text')}
          description="Give HTML, text or both. Mail clients that do not show HTML show the text, and it helps deliverability."
          error={byField.text}
        />
        {other ? <ErrorAlert error={other} fallbackTitle={errorTitle} /> : null}
        {footer}
      </ReadOnlyFields.Provider>
    </form>
  );
}
