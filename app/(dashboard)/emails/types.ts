import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/routers';

type EmailsOutputs = inferRouterOutputs<AppRouter>['emails'];

export type EmailSummary = EmailsOutputs['list']['data'][number];
export type Email = EmailsOutputs['get'];
export type EmailEvent = Email['events'][number];
export type EmailAttachment = Email['attachments'][number];
export type EmailStatus = EmailSummary['status'];
export type ListEmailsInput = inferRouterInputs<AppRouter>['emails']['list'];
