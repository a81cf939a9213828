// What a pre-flight answers, declared once. Imports nothing, so the dashboard can use it.

/** In the order a person fixes them: the domain first, what depends on it after. */
export const PREFLIGHT_CHECK_IDS = [
  'sender_domain',
  'spf',
  'dkim',
  'dmarc',
  'one_click_unsubscribe',
  'visible_unsubscribe',
  'complaint_rate',
  'audience_quality',
  'recorded_consent',
] as const;
export type PreflightCheckId = (typeof PREFLIGHT_CHECK_IDS)[number];

export const CHECK_STATUSES = ['pass', 'warn', 'fail'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * What to change to fix a check that warns or fails: the From domain, by its id once it is the
 * account's (null: register it; a null name too: a domain of the account's own, any). The
 * dashboard links its page; an application reads the id.
 */
export interface PreflightFix {
  resource: 'domain';
  id: string | null;
  name: string | null;
}

export interface PreflightCheck {
  id: PreflightCheckId;
  status: CheckStatus;
  title: string;
  /** What was found and, for warn and fail, exactly how to fix it. */
  detail: string;
  fix: PreflightFix | null;
}

export interface Preflight {
  /** No check failed: a warning is worth reading but does not stop a send. */
  ready: boolean;
  checks: PreflightCheck[];
}

export const CHECK_TITLES: Record<PreflightCheckId, string> = {
  sender_domain: 'Sender domain verified',
  spf: 'SPF passes and aligns',
  dkim: 'DKIM passes and aligns',
  dmarc: 'DMARC policy published',
  one_click_unsubscribe: 'One-click unsubscribe (RFC 8058)',
  visible_unsubscribe: 'Visible unsubscribe link',
  complaint_rate: 'Spam complaint rate',
  audience_quality: 'Audience quality',
  recorded_consent: 'Recorded consent',
};

export const check = (id: PreflightCheckId, status: CheckStatus, detail: string, fix: PreflightFix | null = null): PreflightCheck => ({
  id,
  status,
  title: CHECK_TITLES[id],
  detail,
  // A check that passes has nothing to fix.
  fix: status === 'pass' ? null : fix,
});

export function preflightOf(checks: PreflightCheck[]): Preflight {
  const order = (c: PreflightCheck) => PREFLIGHT_CHECK_IDS.indexOf(c.id);
  const sorted = [...checks].sort((a, b) => order(a) - order(b));
  return { ready: sorted.every((c) => c.status !== 'fail'), checks: sorted };
}
