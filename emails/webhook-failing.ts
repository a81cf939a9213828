import { renderLayout, type RenderedEmail } from './layout';

export function webhookFailingEmail(input: { organizationName: string; url: string; failingSince: Date; lastError: string | null; dashboardUrl: string }): RenderedEmail {
  return renderLayout({
    subject: `Webhook deliveries to ${new URL(input.url).host} have failed for 24 hours`,
    heading: 'A webhook endpoint is failing',
    paragraphs: [
      `Every delivery to ${input.url} (${input.organizationName}) has failed since ${input.failingSince.toISOString()}.${input.lastError ? ` The last attempt: ${input.lastError}.` : ''}`,
      'The endpoint stays registered and keeps receiving new events; deliveries that used up their retries are marked failed. Once it answers 2xx again, replay them from the webhook page, or catch up from the event log (GET /events).',
      `Open the webhook in the dashboard: ${input.dashboardUrl}`,
    ],
    footer: 'You receive this because you own this organization. We send it once per failing streak.',
  });
}
