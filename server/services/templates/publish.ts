import { eq } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { byPrincipal, recordAudit } from '../audit/record';
import { nextVersion, ownTemplate } from './crud';
import { rememberSource } from './sources';
import { templateView, type TemplateView } from './view';

/**
 * `POST /templates/{id}/publish` (Resend's): what the template holds as last written becomes what
 * sends render, and from then on the template has drafts, so later changes wait for the next
 * publish. This is Resend's create-then-publish: a template created the spec's way (sent at once)
 * turns to drafts the first time it is published. Emails already accepted keep what they were
 * rendered with. Publishing a template with nothing waiting publishes it again (a new
 * `publishedAt`); it changes no content.
 */
export async function publishTemplate(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<TemplateView> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await ownTemplate(tx, principal, id, true);
    const updatedAt = nextVersion(deps, current);
    const [published] = await tx
      .update(templates)
      .set({ ...(current.draft ?? {}), draft: null, drafts: true, publishedAt: updatedAt, updatedAt })
      .where(eq(templates.id, current.id))
      .returning();
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'template.published', target: { type: 'template', id: published!.id, label: published!.name } });
    return published!;
  });
  rememberSource(row);
  return templateView(row);
}
