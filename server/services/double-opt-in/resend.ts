import { desc, eq } from 'drizzle-orm';
import { contactConfirmations } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict } from '../../errors';
import { sourceOfPrincipal } from '../consent/source';
import { ownContact } from '../contacts/own';
import type { ContactTarget } from '../contacts/target';
import type { Principal } from '../shared/principal';
import { requestConfirmation, wakeConfirmation, type ConfirmationSender } from './request';
import { confirmationTemplateOrBuiltIn } from './template';

export interface ResentConfirmation {
  contactId: string;
  emailId: string;
  expiresAt: string;
}

/**
 * `POST /contacts/{idOrEmail}/confirmation`: mails a pending contact a new confirmation link, with
 * the sender, template, lists and topics of its last one unless `sender` names others; under the
 * re-send throttle (429). A contact that is not pending has nothing to confirm (409). An inherited
 * template that can no longer write a confirmation (deleted, or edited to drop the link) gives way
 * to the built-in text; one named in `sender` is checked as on the first request.
 */
export async function resendConfirmation(deps: Deps, principal: Principal, target: ContactTarget, sender: Partial<ConfirmationSender> = {}): Promise<ResentConfirmation> {
  const { requested, contactId } = await deps.db.transaction(async (tx) => {
    const contact = await ownContact(tx, principal, target, { lock: true });
    if (contact.pendingSince === null) throw conflict('The contact is not pending a confirmation: there is nothing to confirm');
    const [last] = await tx.select().from(contactConfirmations).where(eq(contactConfirmations.contactId, contact.id)).orderBy(desc(contactConfirmations.createdAt)).limit(1);
    const requested = await requestConfirmation(tx, deps, {
      principal,
      contactId: contact.id,
      sender: {
        from: sender.from ?? last?.fromAddress ?? '',
        templateId: sender.templateId !== undefined ? sender.templateId : await confirmationTemplateOrBuiltIn(tx, principal.organizationId, last?.templateId ?? null),
      },
      join: { audienceIds: last?.audienceIds ?? [], topics: last?.topics ?? [] },
      source: { ...sourceOfPrincipal(principal), formId: last?.formId ?? null, formVersion: last?.formVersion ?? null },
    });
    return { requested, contactId: contact.id };
  });
  wakeConfirmation(deps, requested);
  return { contactId, emailId: requested.emailId!, expiresAt: requested.expiresAt!.toISOString() };
}
