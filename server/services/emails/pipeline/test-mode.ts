import type { Deps } from '../../../deps';
import { finishDispatch, type EmailEventInput } from './finish';
import type { RecipientState } from '../recipients';
import type { ClaimedEmail, DispatchResult } from './types';
import { classifyResponse, explainComplaint } from '../../bounces/classify';

const localPart = (address: string) => address.slice(0, address.lastIndexOf('@')).toLowerCase();
const firstLink = (html: string | null) => /<a\s[^>]*href\s*=\s*["'](https?:[^"']+)["']/i.exec(html ?? '')?.[1] ?? null;

/**
 * A test-mode email is never delivered: each claim plays the next step of its life, one
 * TEST_MODE_STEP_MS apart, and records the same events a live email would. `bounced@…` bounces,
 * `complained@…` is delivered and then complains; opens and clicks follow the tracking settings.
 */
export async function simulateTestEmail(deps: Deps, row: ClaimedEmail): Promise<DispatchResult> {
  const now = deps.clock.now();
  const later = new Date(now.getTime() + deps.config.testModeStepMs);
  const states: RecipientState[] = row.recipients.map((state) => ({ ...state }));
  const delivered = () => states.filter((state) => state.status === 'delivered' || state.status === 'complained');
  const events: EmailEventInput[] = [];
  const simulated = { simulated: true };
  const step = row.attempts;

  if (step === 0) {
    events.push({ type: 'email.sent', data: simulated });
    return finishDispatch(deps, row, states, events, later, { sentAt: now });
  }
  if (step === 1) {
    for (const state of states.filter((s) => s.status === 'pending')) {
      state.attempts += 1;
      if (localPart(state.address) === 'bounced') {
        Object.assign(state, { status: 'bounced', response: '550 5.1.1 simulated bounce' });
        // Explained as a live one would be; a test email is never suppressed, and the sentence says so.
        const bounce = classifyResponse({ text: state.response ?? '', kind: 'bounced', suppressed: false });
        events.push({ type: 'email.bounced', recipient: state.address, data: { ...simulated, response: state.response, bounce } });
      } else {
        Object.assign(state, { status: 'delivered', response: '250 simulated' });
        events.push({ type: 'email.delivered', recipient: state.address, data: simulated });
      }
    }
    const more = delivered().length > 0 && (row.trackOpens || row.trackClicks || delivered().some((s) => localPart(s.address) === 'complained'));
    return finishDispatch(deps, row, states, events, more ? later : null);
  }
  if (step === 2) {
    for (const state of delivered().filter((s) => localPart(s.address) === 'complained')) {
      state.status = 'complained';
      events.push({ type: 'email.complained', recipient: state.address, data: { ...simulated, bounce: explainComplaint({ suppressed: false }) } });
    }
    const reader = delivered().find((s) => s.status === 'delivered');
    if (row.trackOpens && reader) events.push({ type: 'email.opened', recipient: reader.address, data: { ...simulated, machine: false } });
    return finishDispatch(deps, row, states, events, row.trackClicks && reader ? later : null);
  }
  const reader = delivered().find((s) => s.status === 'delivered');
  if (row.trackClicks && reader) events.push({ type: 'email.clicked', recipient: reader.address, data: { ...simulated, url: firstLink(row.html), machine: false } });
  return finishDispatch(deps, row, states, events, null);
}
