'use client';

import type { FormEvent } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { ReadOnlyFields } from '../../../components/read-only-fields';
import { CheckboxField, TextareaField, TextField } from '../../../components/field';
import { fieldErrors } from '../../../lib/field-errors';
import { AudiencePicker } from './audience-picker';
import { COMPOSER_FIELDS, type ComposerValues } from './composer-values';
import { ContentSourceToggle } from './content-source-toggle';
import { FromField } from './from-field';
import { PersonalisationHelp } from './personalisation-help';
import { TemplatePicker } from './template-picker';
import { TopicPicker } from './topic-picker';

/** The id the Save button names with `form=`, as it sits in the header, outside the form. */
export const COMPOSER_FORM_ID = 'broadcast-form';

/**
 * Who gets the broadcast (an audience, under a topic or not), who it is from, and what it says. The server checks everything on
 * save; its complaint about a field ("from: …", "html: line 3: …") shows under that field.
 */
export function ComposerForm({
  values,
  onChange,
  onSubmit,
  error,
  errorTitle,
  readOnly = false,
  subscribed,
}: {
  values: ComposerValues;
  onChange: (values: ComposerValues) => void;
  onSubmit: () => void;
  error: unknown;
  errorTitle: string;
  /** The reader may not save it (their role): every field shows its value without taking input. */
  readOnly?: boolean;
  /** Subscribed contacts of the chosen audience, once the preview has counted them. */
  subscribed: number | null;
}) {
  const { byField, other } = fieldErrors(error, COMPOSER_FIELDS);
  const set = <K extends keyof ComposerValues>(field: K) => (value: ComposerValues[K]) => onChange({ ...values, [field]: value });
  const fromEvent = (field: 'name' | 'replyTo' | 'subject' | 'previewText' | 'html' | 'text') => (event: { target: { value: string } }) => set(field)(event.target.value);
  const template = values.source === 'template';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!readOnly) onSubmit();
  };

  return (
    <form id={COMPOSER_FORM_ID} onSubmit={submit} className="space-y-5" data-testid="broadcast-form" noValidate>
      <ReadOnlyFields.Provider value={readOnly}>
        <AudiencePicker value={values.audienceId} onChange={set('audienceId')} subscribed={subscribed} underTopic={values.topicId !== ''} error={byField.audience_id} />
        <TopicPicker value={values.topicId} onChange={set('topicId')} error={byField.topic_id} />
        <CheckboxField
          label="Only contacts who confirmed their consent"
          name="require_confirmed_consent"
          checked={values.confirmedOnly}
          onChange={(event) => set('confirmedOnly')(event.target.checked)}
          description="Skips every contact whose consent history has no double opt-in confirmation (or import declaring one) since their last opt-out."
        />
        <FromField value={values.from} onChange={set('from')} error={byField.from} />
          <TextField
            label="Reply-To"
            name="reply_to"
            hint="Optional"
            autoComplete="off"
            spellCheck={false}
            placeholder="editor@example.com"
            value={values.replyTo}
            onChange={fromEvent('replyTo')}
            description="Where replies go, if not to the sender. Separate several with commas."
            error={byField.reply_to}
          />
        <TextField
          label="Subject"
          name="subject"
          hint={template ? 'Optional: the template’s subject otherwise' : undefined}
          required={!template}
          maxLength={998}
          autoComplete="off"
          placeholder={'November news for {{ name | default: "you" }}'}
          value={values.subject}
          onChange={fromEvent('subject')}
          error={byField.subject}
        />
        <TextField
          label="Preheader"
          name="preview_text"
          hint="Optional"
          maxLength={500}
          autoComplete="off"
          placeholder="Our picks for November, and what comes next"
          value={values.previewText}
          onChange={fromEvent('previewText')}
          description="The line inboxes show after the subject (Resend’s preview_text), hidden in the message itself. Plain, not Liquid."
          error={byField.preview_text}
        />
        <ContentSourceToggle value={values.source} onChange={set('source')} />
        {template ? (
          <TemplatePicker value={values.templateId} onChange={set('templateId')} error={byField.template_id} />
        ) : (
          <>
            <TextareaField
              label="HTML"
              name="html"
              hint="Values are HTML-escaped"
              mono
              rows={16}
              spellCheck={false}
              placeholder={'<h1>Hello {{ name | default: "there" }}</h1>\n<p>Here is what happened this month…</p>\n<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>'}
              value={values.html}
              onChange={fromEvent('html')}
              error={byField.html}
            />
            <TextareaField
              label="Text"
              name="text"
              hint="Optional plain-text version"
              mono
              rows={6}
              spellCheck={false}
              placeholder={'Hello {{ name | default: "there" }},\n\nHere is what happened this month…\n\nUnsubscribe: {{ unsubscribe_url }}'}
              value={values.text}
              onChange={fromEvent('text')}
              description="Mail clients that do not show HTML show the text; it also helps deliverability."
              error={byField.text}
            />
          </>
        )}
        <PersonalisationHelp />
        <TextField
          label="Name"
          name="name"
          hint="Optional"
          maxLength={200}
          autoComplete="off"
          placeholder={values.subject || 'November newsletter'}
          value={values.name}
          onChange={fromEvent('name')}
          description="For you and your team, in the list of broadcasts; recipients never see it. The subject when left empty."
          error={byField.name}
        />
        {other ? <ErrorAlert error={other} fallbackTitle={errorTitle} /> : null}
      </ReadOnlyFields.Provider>
    </form>
  );
}
