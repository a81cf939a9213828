import { renderLayout, type RenderedEmail } from './layout';

/** To OPERATOR_EMAIL: a provider refused our mail for reputation, and deliveries to it are paused. */
export function deliveryPausedEmail(input: { provider: string; sendingDomain: string | null; reply: string; until: Date }): RenderedEmail {
  const whose = input.sendingDomain ? `mail from ${input.sendingDomain}` : 'all mail of the service (the reply names our own address or host)';
  return renderLayout({
    subject: `Deliveries to ${input.provider} paused: blocked for reputation`,
    heading: `${input.provider} is blocking our mail`,
    paragraphs: [
      `${input.provider} refused ${whose} for reputation. Its reply: ${input.reply}`,
      `Deliveries of that mail to ${input.provider} are paused until ${input.until.toISOString()}, then tried again slowly. Its recipients are kept and retried; none is bounced before the 72-hour retry window ends.`,
      'See the state with `npm run admin -- delivery:status`; look the address up on the block list the reply names and ask for delisting; `delivery:pause` keeps it paused until you `delivery:resume` it.',
    ],
    footer: 'You receive this because OPERATOR_EMAIL names you as the operator of this EU Mail service.',
  });
}
