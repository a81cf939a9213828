import { expect, test, type Page, type Response } from '@playwright/test';
import { trpcMutation } from './dashboard-api';
import { shot, signUp, uniqueEmail } from './helpers';

/**
 * The dashboard under its Content-Security-Policy (docs/security.md), in Chromium: every page is
 * opened as a document, answers with the headers, and runs (scripts carry the response's nonce)
 * without a single violation, whether the browser reports it as an event or on the console. The
 * email preview stays a sandbox without scripts or same-origin.
 */

interface Violation {
  page: string;
  directive: string;
  blocked: string;
}

/** Every violation the pages of this test report, as events (through a binding) and console lines. */
async function watchViolations(page: Page): Promise<{ events: Violation[]; consoleLines: string[] }> {
  const events: Violation[] = [];
  const consoleLines: string[] = [];
  await page.exposeBinding('reportCspViolation', (_source, violation: Violation) => {
    events.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      void (window as unknown as { reportCspViolation(v: Violation): Promise<void> }).reportCspViolation({
        page: location.pathname,
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
      });
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame|create)/i.test(message.text())) consoleLines.push(message.text());
  });
  return { events, consoleLines };
}

function expectHardened(response: Response | null, path: string) {
  expect(response, path).not.toBeNull();
  const headers = response!.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) expect(csp, path).toContain(directive);
  expect(csp, `${path}: no eval in production`).not.toContain('unsafe-eval');
  expect(headers['x-content-type-options'], path).toBe('nosniff');
  expect(headers['x-frame-options'], path).toBe('DENY');
  expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
  // Served over plain HTTP here (APP_URL http://localhost): no HSTS.
  expect(headers['strict-transport-security'], path).toBeUndefined();
}

/** Opens a page as a document and waits for it to be drawn by its scripts (not the session spinner). */
async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  const response = await page.goto(path);
  expectHardened(response, path);
  await ready(page);
  await page.waitForLoadState('networkidle');
}

const heading = (name: RegExp | string) => async (page: Page) => {
  await expect(page.getByRole('heading', { name, level: 1 }).first()).toBeVisible();
};

test('every dashboard page runs under the nonce policy without a violation', async ({ page }) => {
  const { events, consoleLines } = await watchViolations(page);

  await visit(page, '/sign-in', async (p) => {
    await expect(p.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });
  await visit(page, '/sign-up', async (p) => {
    await expect(p.getByRole('button', { name: 'Create account' })).toBeVisible();
  });
  await signUp(page, uniqueEmail('e2e-csp'));

  const domain = await trpcMutation<{ id: string }>(page, 'domains.create', { name: `csp-${Date.now()}.example.com` });
  const template = await trpcMutation<{ id: string }>(page, 'templates.create', {
    name: 'Hardened',
    subject: 'Hello {{ name | default: "there" }}',
    html: '<h1>Hello {{ name | default: "there" }}</h1><p>Shown in a sandbox.</p>',
    text: 'Hello',
  });

  const pages: Array<[string, (page: Page) => Promise<void>]> = [
    ['/', heading('Overview')],
    ['/emails', heading('Emails')],
    ['/domains', heading('Domains')],
    [`/domains/${domain.id}`, async (p) => expect(p.getByText(/csp-\d+\.example\.com/).first()).toBeVisible()],
    ['/api-keys', heading('API keys')],
    ['/webhooks', heading('Webhooks')],
    ['/audiences', heading('Audiences')],
    ['/broadcasts', heading('Broadcasts')],
    ['/broadcasts/new', async (p) => expect(p.getByRole('heading').first()).toBeVisible()],
    ['/templates', heading('Templates')],
    ['/templates/new', async (p) => expect(p.getByTestId('template-form')).toBeVisible()],
    [`/templates/${template.id}`, async (p) => expect(p.frameLocator('[data-testid="html-preview"]').getByRole('heading', { name: 'Hello there' })).toBeVisible()],
    ['/suppressions', heading('Suppressions')],
    ['/billing', heading(/Usage and billing/)],
    ['/no-such-page', async (p) => expect(p.getByText(/not found/i).first()).toBeVisible()],
  ];
  for (const [path, ready] of pages) {
    if (path === '/no-such-page') {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      expectHardened(response, path);
      await ready(page);
      continue;
    }
    await visit(page, path, ready);
  }

  // The preview: a sandbox that may neither run scripts nor reach the dashboard's origin.
  await page.goto(`/templates/${template.id}`);
  const frame = page.getByTestId('html-preview');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame).toHaveAttribute('srcdoc', /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
  await shot(page, 'security-template-preview');

  // Client-side navigation too: Next loads the next page's chunks under the same policy.
  await page.getByRole('link', { name: /^Emails/ }).click();
  await expect(page).toHaveURL(/\/emails$/);
  await heading('Emails')(page);
  await page.waitForLoadState('networkidle');

  expect(events).toEqual([]);
  expect(consoleLines).toEqual([]);
});

test('the API reference (Scalar) runs under the same policy', async ({ page }) => {
  const { events, consoleLines } = await watchViolations(page);
  const response = await page.goto('/docs');
  expectHardened(response, '/docs');
  await expect(page.getByRole('heading', { name: 'EU Mail API', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /Emails/ }).first().click();
  await expect(page.getByText('/emails/batch').first()).toBeAttached();
  await page.waitForLoadState('networkidle');
  await shot(page, 'security-docs', { fullPage: false });
  expect(events).toEqual([]);
  expect(consoleLines).toEqual([]);
});

test('an injected inline script does not run', async ({ page }) => {
  const { events } = await watchViolations(page);
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // As an injection would arrive: markup with an inline handler, which no nonce can cover.
  const ran = await page.evaluate(async () => {
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="/no-such-image.png" onerror="window.__injected = true">';
    document.body.append(holder);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  expect(events.map((event) => event.directive)).toContain('script-src-attr');
});

test('the API answers with the service policy and the same headers', async ({ request }) => {
  const response = await request.get('/api/emails');
  expect(response.status()).toBe(401);
  const headers = response.headers();
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
});

test('the sign-in form says when an account is throttled', async ({ page, baseURL }) => {
  const email = uniqueEmail('e2e-throttle');
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await page.request.post('/api/auth/sign-in/email', { headers: { origin: baseURL! }, data: { email, password: 'not the password' } });
    expect(response.status()).toBe(401);
  }
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password either');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Too many sign-in attempts. Try again in 15 minutes.')).toBeVisible();
  await shot(page, 'security-sign-in-throttled', { fullPage: false });
});
