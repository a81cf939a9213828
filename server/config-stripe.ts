import fs from 'node:fs';
import { PLANS, type PlanId } from './services/plans/plan-table';

/**
 * Stripe, when STRIPE_SECRET_KEY is set (docs/billing.md): the key, the webhook signing secret,
 * where the SDK connects (Stripe's API unless STRIPE_API_BASE says otherwise: tests' loopback
 * stand-in, or a proxy), the monthly price of each paid plan, and how long sending continues after
 * a failed renewal. Null: no payment provider, so an upgrade is a request for the operator.
 */
export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The SDK's host, port and protocol options; null: the SDK's own (api.stripe.com over HTTPS). */
  apiBase: { host: string; port: number; protocol: 'http' | 'https' } | null;
  /** Every paid plan's recurring monthly price id. */
  prices: Record<Exclude<PlanId, 'free'>, string>;
  /**
   * Metered overage (docs/billing.md): the meter's event name, and the metered price on it that
   * every subscription carries, a thousandth of a euro cent a unit; each 1,000 past the quota is
   * one meter event whose value is that thousand's metered cost in those units.
   */
  overage: { meterEventName: string; price: string };
}

export interface StripeEnv {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  STRIPE_PRICES?: string;
  STRIPE_OVERAGE_PRICE?: string;
  STRIPE_OVERAGE_METER?: string;
}

export class StripeConfigError extends Error {}

const PAID_PLANS = (Object.keys(PLANS) as PlanId[]).filter((id) => PLANS[id].priceEurCents > 0) as Array<Exclude<PlanId, 'free'>>;

function apiBaseOf(value: string | undefined): StripeConfig['apiBase'] {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StripeConfigError(`STRIPE_API_BASE must be an http or https URL (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StripeConfigError(`STRIPE_API_BASE must be an http or https URL (got "${value}")`);
  if (url.pathname !== '/' || url.search) throw new StripeConfigError(`STRIPE_API_BASE is a host and port only, without a path (got "${value}")`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** STRIPE_PRICES: a JSON object of plan name to price id, inline or in a file. */
function pricesOf(value: string | undefined): StripeConfig['prices'] {
  if (!value) throw new StripeConfigError('STRIPE_PRICES is required with STRIPE_SECRET_KEY (a JSON object of plan name to price id, or a file holding one)');
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = fs.readFileSync(text, 'utf8');
    } catch {
      throw new StripeConfigError(`STRIPE_PRICES is neither a JSON object nor a readable file (got "${value}")`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StripeConfigError('STRIPE_PRICES is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new StripeConfigError('STRIPE_PRICES must be a JSON object of plan name to price id');
  const entries = Object.entries(parsed as Record<string, unknown>);
  for (const [plan, price] of entries) {
    if (!(PAID_PLANS as string[]).includes(plan)) throw new StripeConfigError(`STRIPE_PRICES names "${plan}", which is not a paid plan (${PAID_PLANS.join(', ')})`);
    if (typeof price !== 'string' || !/^price_\w+$/.test(price)) throw new StripeConfigError(`STRIPE_PRICES: the price of ${plan} must be a Stripe price id (price_...)`);
  }
  const missing = PAID_PLANS.filter((plan) => !(plan in (parsed as object)));
  if (missing.length > 0) throw new StripeConfigError(`STRIPE_PRICES has no price for ${missing.join(', ')}`);
  return parsed as StripeConfig['prices'];
}

/** The meter event name overage is reported under unless STRIPE_OVERAGE_METER says otherwise. */
export const DEFAULT_OVERAGE_METER = 'eumail_overage_millicents';

function overageOf(env: StripeEnv, prices: StripeConfig['prices']): StripeConfig['overage'] {
  const price = env.STRIPE_OVERAGE_PRICE;
  if (!price) throw new StripeConfigError('STRIPE_OVERAGE_PRICE is required with STRIPE_SECRET_KEY (the metered price id on the overage meter, EUR 0.00001 a unit)');
  if (!/^price_\w+$/.test(price)) throw new StripeConfigError(`STRIPE_OVERAGE_PRICE must be a Stripe price id (price_...), got "${price}"`);
  if (Object.values(prices).includes(price)) throw new StripeConfigError('STRIPE_OVERAGE_PRICE must differ from every plan price in STRIPE_PRICES');
  const meterEventName = env.STRIPE_OVERAGE_METER || DEFAULT_OVERAGE_METER;
  // Stripe's event names: up to 100 characters; letters, digits, '_' and '-' keep it unambiguous in logs.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(meterEventName)) throw new StripeConfigError(`STRIPE_OVERAGE_METER must be a meter event name of letters, digits, '_' or '-' (got "${meterEventName}")`);
  return { meterEventName, price };
}

export function stripeConfig(env: StripeEnv): StripeConfig | null {
  if (!env.STRIPE_SECRET_KEY) {
    if (env.STRIPE_WEBHOOK_SECRET || env.STRIPE_PRICES || env.STRIPE_OVERAGE_PRICE) throw new StripeConfigError('STRIPE_WEBHOOK_SECRET, STRIPE_PRICES and STRIPE_OVERAGE_PRICE need STRIPE_SECRET_KEY');
    return null;
  }
  if (!/^(sk|rk)_(test|live)_\w+$/.test(env.STRIPE_SECRET_KEY)) throw new StripeConfigError('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_..., sk_test_..., rk_...)');
  if (!env.STRIPE_WEBHOOK_SECRET?.startsWith('whsec_')) throw new StripeConfigError('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (whsec_...)');
  const prices = pricesOf(env.STRIPE_PRICES);
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase: apiBaseOf(env.STRIPE_API_BASE), prices, overage: overageOf(env, prices) };
}
