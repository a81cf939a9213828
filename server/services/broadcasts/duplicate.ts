import type { Deps } from '../../deps';
import type { Principal } from '../shared/principal';
import { copyName } from '../shared/copy-name';
import { notFound } from '../../errors';
import { createBroadcast } from './crud';
import { ownBroadcast } from './own';
import type { BroadcastView } from './view';

/** A broadcast's name: what the dashboard lists it by. */
export const BROADCAST_NAME_CHARS = 200;

/**
 * A new draft with the audience, topic, sender and content of one of the organization's broadcasts,
 * whatever its status (Resend's `POST /broadcasts/{id}/duplicate`): "send it again" without
 * writing it again. Checked as a new broadcast is: the audience, topic and template must still exist.
 */
export async function duplicateBroadcast(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<BroadcastView> {
  const source = await ownBroadcast(deps.db, principal, id);
  // Its audience was deleted since it was sent: a copy would have no one to go to.
  if (!source.audienceId) throw notFound('Audience');
  return createBroadcast(deps, principal, {
    audienceId: source.audienceId,
    // Its topic, while the topic is there (deleting one sets the broadcasts sent under it to none).
    topicId: source.topicId,
    requireConfirmedConsent: source.requireConfirmedConsent,
    from: source.from,
    name: copyName(source.name, BROADCAST_NAME_CHARS),
    replyTo: source.replyTo,
    ...(source.subject === null ? {} : { subject: source.subject }),
    ...(source.previewText === null ? {} : { previewText: source.previewText }),
    ...(source.templateId ? { templateId: source.templateId } : { ...(source.html === null ? {} : { html: source.html }), ...(source.text === null ? {} : { text: source.text }) }),
  });
}
