/** A tag as stored and answered: ASCII letters, digits, `_` and `-` (checked at the edge). */
interface EmailTag {
  name: string;
  value: string;
}

/** An attachment as the service takes it: decoded, with its content type settled. */
export interface AttachmentInput {
  filename: string;
  content: Buffer;
  contentType: string;
  /** An inline part, referred to from the HTML as `cid:<contentId>`. */
  contentId?: string;
}

/**
 * One email as the accept path takes it, whatever the channel (REST, batch, tRPC, later SMTP):
 * addresses already parsed as valid mailboxes, lists already lists.
 */
export interface EmailInput {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html?: string;
  text?: string;
  headers: Record<string, string>;
  tags: EmailTag[];
  tracking: { opens?: boolean; clicks?: boolean };
}

/** `POST /emails` adds what a batch item cannot carry. */
export interface SendEmailInput extends EmailInput {
  attachments: AttachmentInput[];
  scheduledAt?: Date;
  /** A repeat with the same key within 24 hours answers with the first email. */
  idempotencyKey?: string;
  /** How it came in when not through the API (the SMTP gateway): shown on the email's page. */
  submittedVia?: 'smtp';
}

/** Every address the email goes to, in to, cc, bcc order. */
export const recipientsOf = (input: EmailInput): string[] => [...input.to, ...input.cc, ...input.bcc];

/** The subject and bodies taken from one of the organization's templates, rendered with the variables. */
export interface TemplateContent {
  templateId: string;
  variables: Record<string, unknown>;
  /** How the request named it: `template_id` + `variables` (the spec's), or Resend's `template: { id, variables }`; refusals name its fields. */
  form?: 'template_id' | 'template';
}

/** An email as a channel hands it: with its subject and bodies, or with a template to render them from. */
export type EmailRequest<T extends EmailInput = EmailInput> = T | (Omit<T, 'subject' | 'html' | 'text'> & { template: TemplateContent });
