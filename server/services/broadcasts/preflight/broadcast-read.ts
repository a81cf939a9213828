import { and, eq } from 'drizzle-orm';
import { broadcasts } from '@/db/schema';
import type { Db } from '@/db/client';
import { notFound } from '../../../errors';
import { isUuid } from '../../../ids';

/** What the pre-flight reads of a broadcast. */
export interface PreflightBroadcast {
  id: string;
  from: string;
  audienceId: string | null;
  /** The topic it is sent under: the audience counts are of the members in it. */
  topicId: string | null;
  /** Only contacts with confirmed consent get it: the consent check counts the others. */
  requireConfirmedConsent: boolean;
  html: string | null;
  text: string | null;
  templateId: string | null;
}

/** The organization's broadcast; 404 for anything else, another organization's included. */
export async function ownBroadcast(db: Db, organizationId: string, id: string): Promise<PreflightBroadcast> {
  if (!isUuid(id)) throw notFound('Broadcast');
  const [row] = await db
    .select({ id: broadcasts.id, from: broadcasts.from, audienceId: broadcasts.audienceId, topicId: broadcasts.topicId, requireConfirmedConsent: broadcasts.requireConfirmedConsent, html: broadcasts.html, text: broadcasts.text, templateId: broadcasts.templateId })
    .from(broadcasts)
    .where(and(eq(broadcasts.id, id), eq(broadcasts.organizationId, organizationId)));
  if (!row) throw notFound('Broadcast');
  return row;
}
