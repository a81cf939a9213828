import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audiences, forms } from '@/db/schema';
import { conflict } from '../../errors';

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/**
 * A template the organization has put to standing use is not deleted (409 naming the user): a
 * sign-up form's confirmation mail, and an audience's re-engagement email before sunset. Deleting it
 * would silently change what every new subscriber of that form receives (often wording the
 * organization must show there, an imprint or a privacy note), or stop the re-engagement emails (and
 * with them the audience's sunset), so the form or audience is changed first. The foreign keys'
 * `set null` is the backstop for one choosing it while the deletion runs.
 */
export async function refuseTemplateInUse(tx: Db, organizationId: string, templateId: string): Promise<void> {
  const usingForms = await tx
    .select({ name: forms.name })
    .from(forms)
    .where(and(eq(forms.organizationId, organizationId), eq(forms.confirmationTemplateId, templateId)))
    .orderBy(asc(forms.id));
  if (usingForms.length > 0) {
    const names = quoted(usingForms.map((form) => form.name));
    throw conflict(`The template writes the confirmation mail of the form${usingForms.length > 1 ? 's' : ''} ${names}: choose another template (or the built-in text) there first`);
  }
  const usingAudiences = await tx
    .select({ name: audiences.name })
    .from(audiences)
    .where(and(eq(audiences.organizationId, organizationId), eq(audiences.sunsetReengagementTemplateId, templateId)))
    .orderBy(asc(audiences.id));
  if (usingAudiences.length > 0) {
    const names = quoted(usingAudiences.map((audience) => audience.name));
    throw conflict(`The template is the re-engagement email before sunset of the audience${usingAudiences.length > 1 ? 's' : ''} ${names}: choose another template there, or turn the email off, first`);
  }
}
