import { accountBucketKey, addressBucketKey, beginSignIn, pruneNowAndThen, release, takePlace, type SignInTicket, type ThrottleDeps } from './throttle';

/**
 * The better-auth routes that are counted, by the path better-auth's router resolved (its
 * endpoint's own path, never the path a client spelled): a password guessed, an account made, a
 * reset asked for. Sign-in is counted per account and per address (throttle.ts); the rest per
 * address, each in a window of its own; asking for a reset mail also per account (the address
 * asked for, known or not, so a refusal tells nothing about who has an account). `givesBack`: a
 * success leaves no place taken, so what stays counted is failures; an account made or a reset
 * asked for stays counted.
 */
interface AddressRule {
  /** The window's name, under the client's address (and the account's, with `perAccount`). */
  window: string;
  limit: number;
  windowMs: number;
  givesBack: boolean;
  /** Also counted per account, by the email in the body: at most this many in the window. */
  perAccount?: number;
}

export const AUTH_ADDRESS_RULES: Readonly<Record<string, AddressRule>> = {
  // An office behind one NAT signing up a hundred people in an hour is far past any real team.
  '/sign-up/email': { window: 'sign-up', limit: 100, windowMs: 60 * 60_000, givesBack: false },
  // The reset routes: asking for a reset mail, and trying a reset token.
  // Five reset mails to one address in a quarter of an hour is past any forgetful person, and
  // bounds the mail anyone can make us send to someone else's inbox.
  '/request-password-reset': { window: 'password-reset', limit: 10, windowMs: 15 * 60_000, givesBack: false, perAccount: 5 },
  '/reset-password': { window: 'password-reset', limit: 10, windowMs: 15 * 60_000, givesBack: false },
  // A signed-in session checking its own password: guesses from a stolen session are still guesses.
  '/change-password': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/verify-password': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/delete-user': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  // Two-factor sign-in: the code step (a TOTP or a recovery code), counted per address beside the
  // plugin's own 5 tries per challenge and lock after 10 failures per account; and the routes
  // that check the password before turning it on or off, showing it, or making new recovery codes.
  '/two-factor/verify-totp': { window: 'two-factor', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/two-factor/verify-backup-code': { window: 'two-factor', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/two-factor/enable': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/two-factor/disable': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/two-factor/get-totp-uri': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
  '/two-factor/generate-backup-codes': { window: 'password-check', limit: 30, windowMs: 15 * 60_000, givesBack: true },
};

/** better-auth's email sign-in, counted per account and per address. */
export const SIGN_IN_ROUTE = '/sign-in/email';

/**
 * The code step of a sign-in (after the password, for a person with two-factor sign-in). A wrong
 * code is a failed sign-in like a wrong password: counted in the same windows, per account (the
 * account the challenge is for) and per address. Without a challenge (a code that confirms a
 * set-up, signed in) the route keeps its own address window above.
 */
export const SIGN_IN_CODE_ROUTES: readonly string[] = ['/two-factor/verify-totp', '/two-factor/verify-backup-code'];

export const isCountedAuthRoute = (route: string): boolean => route === SIGN_IN_ROUTE || Object.hasOwn(AUTH_ADDRESS_RULES, route);

/** The address window of a rule: the address's key with the rule's window in front. */
const ruleKey = (rule: AddressRule, address: string | null) => addressBucketKey(address).replace(/^sign-in:/, `sign-in:${rule.window}:`);
/** The account window of a rule, likewise. */
const ruleAccountKey = (rule: AddressRule, email: string) => accountBucketKey(email).replace(/^sign-in:/, `sign-in:${rule.window}:`);

/**
 * Takes the attempt's places for the route better-auth resolved, before its handler runs. Null
 * for a route nobody counts; a refusal says how long until there is room again.
 */
export async function beginAuthAttempt(
  deps: ThrottleDeps,
  route: string,
  attempt: { address: string | null; email: unknown; /** A code step's: the account its sign-in challenge is for. */ challengedEmail?: string | null },
): Promise<SignInTicket | null> {
  if (SIGN_IN_CODE_ROUTES.includes(route) && attempt.challengedEmail) return beginSignIn(deps, { address: attempt.address, email: attempt.challengedEmail });
  if (route === SIGN_IN_ROUTE) {
    // Without an email better-auth refuses the body before any password is checked; the address still counts.
    return beginSignIn(deps, { address: attempt.address, email: typeof attempt.email === 'string' ? attempt.email : '' });
  }
  const rule = Object.hasOwn(AUTH_ADDRESS_RULES, route) ? AUTH_ADDRESS_RULES[route] : undefined;
  if (!rule) return null;
  const nowMs = deps.clock.now().getTime();
  await pruneNowAndThen(deps, nowMs);
  const key = ruleKey(rule, attempt.address);
  const place = await takePlace(deps, key, rule.limit, nowMs, rule.windowMs);
  if (!place.allowed) return { allowed: false, retryAfterMs: place.resetMs, limitedBy: 'address' };
  if (rule.perAccount !== undefined) {
    // Without an email better-auth refuses the body before anything is mailed; the address still counts.
    const email = typeof attempt.email === 'string' ? attempt.email : '';
    const account = await takePlace(deps, ruleAccountKey(rule, email), rule.perAccount, nowMs, rule.windowMs);
    if (!account.allowed) {
      await release(deps, key, place.countedAt);
      return { allowed: false, retryAfterMs: account.resetMs, limitedBy: 'account' };
    }
  }
  return { allowed: true, succeeded: async () => (rule.givesBack ? void (await release(deps, key, place.countedAt)) : undefined) };
}
