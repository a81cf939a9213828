import { z } from 'zod';
import { attachmentDownload } from './attachment-download';
import type { PlainRoute } from '../../trpc/plain-route';
import { authorize } from '../../trpc/procedures';

/** Attachments answer with their own bytes and content type, which trpc-to-openapi cannot: a plain route. */
export const emailAttachmentRoute: PlainRoute = {
  method: 'GET',
  path: '/emails/{id}/attachments/{attachmentId}',
  errors: [410],
  operation: {
    operationId: 'getEmailAttachment',
    tags: ['Emails'],
    summary: 'Download an attachment (kept for 30 days; 410 ATTACHMENT_EXPIRED afterwards)',
    requestParams: { path: z.object({ id: z.uuid(), attachmentId: z.uuid() }) },
    responses: { 200: { description: 'The file, with its content type', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
  },
  async handle({ res, ctx, deps, params }) {
    const principal = await authorize(ctx, {});
    const file = await attachmentDownload(deps, principal, params.id ?? '', params.attachmentId ?? '');
    res.writeHead(200, file.headers);
    res.end(file.content);
  },
};
