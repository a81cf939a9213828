import { escapeHtml } from './public-page';
import { address, layout, settlingLine, type Listed } from './unsubscribe-layout';

/*
 * The preference page: what GET /unsubscribe/{token} shows when the organization has topics. One
 * form, no script: a box per topic (ticked while the contact gets it), the audience the email was
 * sent to when it had no topic, "Save preferences", and "Unsubscribe from everything" (a second
 * submit button of the same form). `shown` lists what the form offered, so a topic made since the
 * page was opened is left as it is.
 */

const org = (state: Listed) => escapeHtml(state.organizationName);
const thisEmail = '<span class="tag">this email</span>';

const topicBox = (state: Listed, topic: Listed['topics'][number]) =>
  `<label><input type="checkbox" name="topic_${escapeHtml(topic.id)}" value="1"${topic.subscribed ? ' checked' : ''}>` +
  `<span><span class="name">${escapeHtml(topic.name)}</span>${state.topic?.id === topic.id ? thisEmail : ''}` +
  (topic.description ? `<span class="about">${escapeHtml(topic.description)}</span>` : '') +
  '</span></label>';

/** The audience, offered when the email was sent to it without a topic and the contact is still subscribed there. */
const offersAudience = (state: Listed) => !state.topic && state.inAudience;

const audienceBox = (state: Listed) =>
  '<fieldset><legend>Mailing list</legend><label><input type="checkbox" name="audience" value="1" checked>' +
  `<span><span class="name">${escapeHtml(state.audienceName)}</span>${thisEmail}<span class="about">Every email sent to this list</span></span></label></fieldset>`;

const leftAudienceLine = (state: Listed) =>
  !state.topic && !state.inAudience ? `<p class="quiet">${address(state)} has left the list <strong>${escapeHtml(state.audienceName)}</strong> and gets none of its emails.</p>` : '';

function preferencesForm(state: Listed): string {
  const shown = [...state.topics.map((topic) => topic.id), ...(offersAudience(state) ? ['audience'] : [])].join(' ');
  return (
    '<form method="post"><input type="hidden" name="confirm" value="1"><input type="hidden" name="preferences" value="1">' +
    `<input type="hidden" name="shown" value="${escapeHtml(shown)}">` +
    `<fieldset><legend>Topics</legend>${state.topics.map((topic) => topicBox(state, topic)).join('')}</fieldset>` +
    (offersAudience(state) ? audienceBox(state) : '') +
    '<button type="submit" class="save">Save preferences</button>' +
    `<div class="everything"><p class="quiet">Or get nothing more from ${org(state)}:</p><button type="submit" name="everything" value="1">Unsubscribe from everything</button></div>` +
    '</form>'
  );
}

const everythingPage = (state: Listed, title: string) =>
  layout(title, `<h1>${title}</h1><p>${address(state)} gets no more email from ${org(state)}.</p>${settlingLine}`);

/** Stopped everything (and on the suppression list): nothing left to choose. */
const stoppedEverything = (state: Listed) => state.unsubscribedAll && state.stoppedAll;

/** GET: every topic with the contact's state, changing nothing. */
export function preferencesPage(state: Listed): string {
  if (stoppedEverything(state)) return everythingPage(state, 'Unsubscribed from everything');
  const intro = `<h1>Email preferences</h1><p>Choose the emails ${org(state)} sends to ${address(state)}. Untick what you no longer want.</p>`;
  const paused = state.unsubscribedAll ? `<p class="quiet">${address(state)} is unsubscribed from everything ${org(state)} sends to its lists.</p>` : '';
  return layout('Email preferences', intro + paused + leftAudienceLine(state) + preferencesForm(state));
}

/** After the form: what the contact gets now, and the form again. */
export function preferencesSavedPage(state: Listed, everything: boolean): string {
  if (everything || stoppedEverything(state)) return everythingPage(state, 'You are unsubscribed from everything');
  const kept = state.topics.filter((topic) => topic.subscribed).map((topic) => `<strong>${escapeHtml(topic.name)}</strong>`);
  const summary = kept.length > 0 ? `${address(state)} gets ${kept.join(', ')} from ${org(state)}.` : `${address(state)} gets none of the topics of ${org(state)}.`;
  return layout('Preferences saved', `<h1>Preferences saved</h1><p>${summary}</p>${settlingLine}${leftAudienceLine(state)}${preferencesForm(state)}`);
}
