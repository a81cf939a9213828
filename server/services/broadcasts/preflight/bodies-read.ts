import { and, eq } from 'drizzle-orm';
import { templates } from '@/db/schema';
import type { Db } from '@/db/client';
import type { PreflightBroadcast } from './broadcast-read';
import type { BroadcastBodies } from './unsubscribe';

/**
 * The bodies the broadcast sends: its own once it has any (a template's content is copied into
 * it when sending starts), else its template's; null when it has neither (the template was deleted).
 */
export async function bodiesOf(db: Db, organizationId: string, broadcast: PreflightBroadcast): Promise<BroadcastBodies | null> {
  if (broadcast.html !== null || broadcast.text !== null) return { html: broadcast.html, text: broadcast.text, template: null };
  if (broadcast.templateId === null) return null;
  const [template] = await db
    .select({ name: templates.name, html: templates.html, text: templates.text })
    .from(templates)
    .where(and(eq(templates.id, broadcast.templateId), eq(templates.organizationId, organizationId)));
  return template ? { html: template.html, text: template.text, template: template.name } : null;
}
