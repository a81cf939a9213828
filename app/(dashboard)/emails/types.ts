import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type EmailsOutputs = RouterOutputs['emails'];

export type EmailSummary = EmailsOutputs['list']['data'][number];
export type Email = EmailsOutputs['get'];
export type EmailEvent = Email['events'][number];
export type EmailAttachment = Email['attachments'][number];
export type EmailStatus = EmailSummary['status'];
export type ListEmailsInput = RouterInputs['emails']['list'];
export type EmailSource = EmailSummary['source'];
