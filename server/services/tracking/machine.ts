import { isAllowedPrivate } from '../../net/ip-policy';

/*
 * Machine opens and clicks (docs/tracking.md, "Machines"). Pure: what the request gave (its
 * User-Agent, its client address), when it came, and what the email's history already holds.
 * Each rule names itself in `reason`; the first that matches wins, most specific first.
 */

/** An open this soon after the delivery was recorded is a gateway fetching the images, not a reader. */
export const OPEN_AT_DELIVERY_MS = 2_000;
/** A click this soon after the delivery was recorded is a link scanner. */
export const CLICK_AT_DELIVERY_MS = 10_000;
/** Clicks of distinct links each within this long of the one before form one burst. */
export const CLICK_BURST_GAP_MS = 5_000;
/** A burst over this many distinct links (or over every link of an email with fewer) is a scanner. */
export const CLICK_BURST_LINKS = 3;

export type MachineReason =
  | 'no_user_agent'
  | 'apple_mail_privacy_protection'
  | 'bare_user_agent'
  | 'gmail_image_proxy'
  | 'gmail_content_sampling'
  | 'yahoo_mail_proxy'
  | 'microsoft_office_link_check'
  | 'proofpoint'
  | 'mimecast'
  | 'barracuda'
  | 'headless_browser'
  | 'automated_client'
  | 'crawler'
  | 'known_machine_network'
  | 'opened_at_delivery'
  | 'clicked_at_delivery'
  | 'every_link_at_once';

export interface Judgement {
  machine: boolean;
  reason: MachineReason | null;
}

interface Request {
  userAgent: string | null | undefined;
  /** The client address as the listener decided it (full, before truncation), or null. */
  address: string | null | undefined;
  at: Date;
  /** The first recorded `email.delivered` of the email, or null when none is recorded yet. */
  deliveredAt: Date | null;
  /** Networks the operator knows to be proxies and scanners (`TRACKING_MACHINE_CIDRS`). */
  machineNetworks?: readonly string[];
}

export interface RecentClick {
  url: string;
  at: Date;
}

const HUMAN: Judgement = { machine: false, reason: null };
const machine = (reason: MachineReason): Judgement => ({ machine: true, reason });

type Signature = { reason: MachineReason; test: RegExp };

/** Proxies and scanners that say who they are, for opens and clicks alike. */
const NAMED: Signature[] = [
  { reason: 'gmail_image_proxy', test: /GoogleImageProxy|ggpht\.com/i },
  { reason: 'gmail_content_sampling', test: /Gmail-content-sampling/i },
  { reason: 'yahoo_mail_proxy', test: /YahooMailProxy/i },
  { reason: 'proofpoint', test: /proofpoint/i },
  { reason: 'mimecast', test: /mimecast/i },
  { reason: 'barracuda', test: /barracuda/i },
  { reason: 'headless_browser', test: /HeadlessChrome|PhantomJS|Puppeteer|Playwright|Selenium/i },
  // HTTP libraries and command-line tools: no mail client or browser sends these.
  {
    reason: 'automated_client',
    test: /^(?:curl|Wget|python-requests|python-urllib|Python\/|aiohttp|httpx|Go-http-client|Java\/|Apache-HttpClient|okhttp|axios|node-fetch|undici|libwww-perl|Ruby|Faraday|Scrapy|PostmanRuntime)\b/i,
  },
  // A product token naming itself a bot, crawler or spider (`Googlebot/2.1`, `AhrefsBot/7.0`).
  { reason: 'crawler', test: /(?:bot|crawler|spider)\/|\bscanner\b/i },
];

/** Office's check of a link before it hands it to the browser, which then makes its own request. */
const MS_OFFICE_LINK_CHECK = /\bms-office\b|\bMSOffice\b/i;

/** Every browser and mail client follows `Mozilla/5.0` with its platform in parentheses; Apple's proxies send the token alone. */
const BARE_MOZILLA = /^Mozilla\/5\.0$/;

function byUserAgent(userAgent: string | null | undefined, kind: 'open' | 'click'): Judgement | null {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return machine('no_user_agent');
  if (BARE_MOZILLA.test(ua)) return machine(kind === 'open' ? 'apple_mail_privacy_protection' : 'bare_user_agent');
  const named = NAMED.find((signature) => signature.test.test(ua));
  if (named) return machine(named.reason);
  // Outlook for Windows fetches a message's images with this token when its reader opens it: a
  // person's open. On a click it is Office checking the link before the browser opens it.
  if (kind === 'click' && MS_OFFICE_LINK_CHECK.test(ua)) return machine('microsoft_office_link_check');
  return null;
}

function byAddress(address: string | null | undefined, networks: readonly string[] | undefined): Judgement | null {
  return address && networks && networks.length > 0 && isAllowedPrivate(address, [...networks]) ? machine('known_machine_network') : null;
}

const soonAfter = (at: Date, deliveredAt: Date | null, windowMs: number) => deliveredAt !== null && at.getTime() - deliveredAt.getTime() < windowMs;

/** Whether a fetch of an email's open pixel was a machine's, and why. */
export function judgeOpen(request: Request): Judgement {
  return (
    byUserAgent(request.userAgent, 'open') ??
    byAddress(request.address, request.machineNetworks) ??
    (soonAfter(request.at, request.deliveredAt, OPEN_AT_DELIVERY_MS) ? machine('opened_at_delivery') : HUMAN)
  );
}

/**
 * The distinct links of the burst this click ends: walking back from it, every earlier click
 * within CLICK_BURST_GAP_MS of the one after it.
 */
export function burstLinks(url: string, at: Date, recentClicks: readonly RecentClick[]): number {
  const earlier = recentClicks.filter((click) => click.at.getTime() <= at.getTime()).sort((a, b) => b.at.getTime() - a.at.getTime());
  const links = new Set([url]);
  let last = at.getTime();
  for (const click of earlier) {
    if (last - click.at.getTime() > CLICK_BURST_GAP_MS) break;
    links.add(click.url);
    last = click.at.getTime();
  }
  return links.size;
}

/** Whether a click on a tracked link was a machine's, and why. */
export function judgeClick(
  request: Request & {
    url: string;
    /** The email's clicks already recorded (machine or not), from a few minutes back. */
    recentClicksOfEmail: readonly RecentClick[];
    /** How many distinct links the email tracks. */
    linkCount: number;
  },
): Judgement {
  const named = byUserAgent(request.userAgent, 'click') ?? byAddress(request.address, request.machineNetworks);
  if (named) return named;
  if (soonAfter(request.at, request.deliveredAt, CLICK_AT_DELIVERY_MS)) return machine('clicked_at_delivery');
  const burst = burstLinks(request.url, request.at, request.recentClicksOfEmail);
  // An email with two links, both clicked within seconds, had every link clicked.
  if (burst >= 2 && burst >= Math.min(CLICK_BURST_LINKS, request.linkCount)) return machine('every_link_at_once');
  return HUMAN;
}
