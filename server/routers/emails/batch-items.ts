import { validationError } from '../../errors';
import type { BatchItem } from '../../services/emails/accept/batch';
import { describeIssues } from '../../trpc/envelope';
import { batchEmailBody, toEmailInput } from './wire';

/** A batch body as the accept path takes it: each item an email, or why its body was refused (that item's error only). */
export function batchItemsOf(body: unknown): BatchItem[] {
  if (!Array.isArray(body)) throw validationError('The body must be a JSON array of emails');
  return body.map((item): BatchItem => {
    const parsed = batchEmailBody.safeParse(item);
    return parsed.success ? { input: toEmailInput(parsed.data) } : { invalid: describeIssues(parsed.error.issues) };
  });
}
