import type { CreateTemplateInput, Template, UpdateTemplateInput } from './types';

/** What the editor's fields hold: an empty body field is a part the template does not have. */
export interface TemplateValues {
  name: string;
  subject: string;
  html: string;
  text: string;
}

export const TEMPLATE_FIELDS = ['name', 'subject', 'html', 'text'] as const;

export const EMPTY_VALUES: TemplateValues = { name: '', subject: '', html: '', text: '' };

export const valuesOf = (template: Template): TemplateValues => ({ name: template.name, subject: template.subject, html: template.html ?? '', text: template.text ?? '' });

export const sameValues = (a: TemplateValues, b: TemplateValues) => TEMPLATE_FIELDS.every((field) => a[field] === b[field]);

/** A new template: the parts left empty are not sent (the server says when neither is given). */
export const createInput = (values: TemplateValues): CreateTemplateInput => ({
  name: values.name.trim(),
  subject: values.subject,
  html: values.html === '' ? undefined : values.html,
  text: values.text === '' ? undefined : values.text,
});

/** Only what changed; a body field emptied removes that part (`null`). */
export function updateInput(template: Template, values: TemplateValues): UpdateTemplateInput {
  const saved = valuesOf(template);
  const name = values.name.trim();
  return {
    id: template.id,
    name: name === saved.name ? undefined : name,
    subject: values.subject === saved.subject ? undefined : values.subject,
    html: values.html === saved.html ? undefined : values.html === '' ? null : values.html,
    text: values.text === saved.text ? undefined : values.text === '' ? null : values.text,
  };
}
