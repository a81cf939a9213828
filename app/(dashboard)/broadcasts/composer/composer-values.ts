import type { Broadcast, CreateBroadcastInput, UpdateBroadcastInput } from '../types';

/** Whether the message is written here (HTML and text) or comes from a saved template. */
export type ContentSource = 'html' | 'template';

/** What the composer's fields hold. Reply-To is typed as one line, addresses separated by commas. */
export interface ComposerValues {
  name: string;
  audienceId: string;
  /** The topic it is sent under; empty: none (every subscribed contact of the audience). */
  topicId: string;
  /** Only contacts whose consent was confirmed get it (docs/consent.md). */
  confirmedOnly: boolean;
  from: string;
  replyTo: string;
  subject: string;
  /** The preheader (`preview_text`); empty: none. */
  previewText: string;
  source: ContentSource;
  html: string;
  text: string;
  templateId: string;
}

/** The fields the server names in a refusal ("from: …"), in the wire's spelling. */
export const COMPOSER_FIELDS = ['name', 'audience_id', 'topic_id', 'require_confirmed_consent', 'from', 'reply_to', 'subject', 'preview_text', 'html', 'text', 'template_id'] as const;

export const EMPTY_VALUES: ComposerValues = { name: '', audienceId: '', topicId: '', confirmedOnly: false, from: '', replyTo: '', subject: '', previewText: '', source: 'html', html: '', text: '', templateId: '' };

/** "a@x.com, b@x.com" as the list the API takes; empty parts (a trailing comma) are dropped. */
export const replyToList = (line: string) =>
  line
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

export const valuesOf = (broadcast: Broadcast): ComposerValues => ({
  name: broadcast.name,
  audienceId: broadcast.audienceId ?? '',
  topicId: broadcast.topicId ?? '',
  confirmedOnly: broadcast.requireConfirmedConsent,
  from: broadcast.from,
  replyTo: broadcast.replyTo.join(', '),
  subject: broadcast.subject ?? '',
  previewText: broadcast.previewText ?? '',
  source: broadcast.templateId ? 'template' : 'html',
  html: broadcast.html ?? '',
  text: broadcast.text ?? '',
  templateId: broadcast.templateId ?? '',
});

export const sameValues = (a: ComposerValues, b: ComposerValues) => (Object.keys(a) as Array<keyof ComposerValues>).every((key) => a[key] === b[key]);

/** A new draft. The name may stay empty: the server names it after the subject. */
export function createInput(values: ComposerValues): CreateBroadcastInput {
  const replyTo = replyToList(values.replyTo);
  const common = {
    audience_id: values.audienceId,
    topic_id: values.topicId || undefined,
    require_confirmed_consent: values.confirmedOnly || undefined,
    from: values.from.trim(),
    name: values.name.trim() || undefined,
    reply_to: replyTo.length > 0 ? replyTo : undefined,
    subject: values.subject === '' ? undefined : values.subject,
    preview_text: values.previewText.trim() || undefined,
  };
  if (values.source === 'template') return { ...common, template_id: values.templateId || undefined };
  return { ...common, html: values.html === '' ? undefined : values.html, text: values.text === '' ? undefined : values.text };
}

/**
 * Only what changed. Switching to a template sends its id (the server drops the bodies);
 * switching to writing sends both bodies (the server drops the template). An emptied subject of
 * a template broadcast is null: the template's subject is used.
 */
export function updateInput(broadcast: Broadcast, values: ComposerValues): UpdateBroadcastInput {
  const saved = valuesOf(broadcast);
  const input: UpdateBroadcastInput = { id: broadcast.id };
  const name = values.name.trim();
  if (name !== saved.name && name !== '') input.name = name;
  if (values.audienceId !== saved.audienceId) input.audience_id = values.audienceId;
  if (values.topicId !== saved.topicId) input.topic_id = values.topicId || null;
  if (values.confirmedOnly !== saved.confirmedOnly) input.require_confirmed_consent = values.confirmedOnly;
  if (values.from.trim() !== saved.from) input.from = values.from.trim();
  if (values.replyTo !== saved.replyTo) input.reply_to = replyToList(values.replyTo);
  if (values.subject !== saved.subject) input.subject = values.subject === '' ? null : values.subject;
  if (values.previewText !== saved.previewText) input.preview_text = values.previewText.trim() || null;
  const switched = values.source !== saved.source;
  if (values.source === 'template') {
    if (switched || values.templateId !== saved.templateId) input.template_id = values.templateId || null;
  } else {
    if (switched || values.html !== saved.html) input.html = values.html === '' ? null : values.html;
    if (switched || values.text !== saved.text) input.text = values.text === '' ? null : values.text;
  }
  return input;
}
