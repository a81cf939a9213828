import { expect } from 'vitest';
import type { TestApp } from './app';

/** A template of the organization, published (a template without drafts is published as written), with a sender. */
export async function publishedTemplate(app: TestApp, key: string, input: { from?: string | null; draft?: boolean } = {}): Promise<string> {
  const body: Record<string, unknown> = { name: 'Welcome', subject: 'Welcome, {{ first_name }}', html: '<p>Hello {{ first_name }}</p>' };
  if (input.from !== null) body.from = input.from ?? 'Acme <hello@acme.example.com>';
  if (input.draft) body.draft = true;
  const response = await app.request('POST', '/api/templates', { key, body });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

/** A welcome series: a custom event, a day's delay, the template. */
export const welcomeSeries = (templateId: string, extra: Record<string, unknown> = {}) => ({
  name: 'Welcome series',
  steps: [
    { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
    { key: 'wait_1_day', type: 'delay', config: { duration: '1 day' } },
    { key: 'welcome', type: 'send_email', config: { template: { id: templateId, variables: { plan: { var: 'event.plan' } } } } },
  ],
  connections: [
    { from: 'start', to: 'wait_1_day' },
    { from: 'wait_1_day', to: 'welcome', type: 'default' },
  ],
  ...extra,
});

/** An automation that sends nothing and names nothing of the organization's: a new contact waits an hour. */
export const quiet = (name = 'Quiet') => ({
  name,
  steps: [
    { key: 'start', type: 'trigger', config: { event_name: 'contact.created' } },
    { key: 'pause', type: 'delay', config: { duration: '1 hour' } },
  ],
  connections: [{ from: 'start', to: 'pause' }],
});
