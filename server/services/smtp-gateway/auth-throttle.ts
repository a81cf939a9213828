/**
 * Failed SMTP logins per client address: after FAILURES_ALLOWED failures within WINDOW_MS, the
 * address is turned away (421) for BLOCK_MS, so a password can not be guessed at line speed. Kept
 * in the process (each gateway process counts its own clients): a guesser spread over several
 * gateway processes gets a few more tries, never enough to matter against a 43-character key.
 */
export const AUTH_THROTTLE = {
  failuresAllowed: 10,
  windowMs: 60_000,
  blockMs: 5 * 60_000,
  /** Addresses remembered at most: past this, the oldest are forgotten (a flood of addresses cannot grow memory). */
  addresses: 10_000,
} as const;

interface Entry {
  failures: number[];
  blockedUntil: number;
}

export class AuthThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  /** Milliseconds this address stays turned away; 0 when it may log in. */
  blockedFor(address: string): number {
    const entry = this.entries.get(address);
    return entry ? Math.max(0, entry.blockedUntil - this.now()) : 0;
  }

  /** Records a failed login; answers how long the address is now turned away (0: not yet). */
  failed(address: string): number {
    const now = this.now();
    const entry = this.entries.get(address) ?? { failures: [], blockedUntil: 0 };
    this.entries.delete(address);
    entry.failures = [...entry.failures.filter((at) => at > now - AUTH_THROTTLE.windowMs), now];
    if (entry.failures.length >= AUTH_THROTTLE.failuresAllowed) {
      entry.blockedUntil = now + AUTH_THROTTLE.blockMs;
      entry.failures = [];
    }
    this.entries.set(address, entry);
    if (this.entries.size > AUTH_THROTTLE.addresses) this.entries.delete(this.entries.keys().next().value!);
    return this.blockedFor(address);
  }

  /** A successful login clears the address's failures (a user who mistyped once is not counted against later). */
  succeeded(address: string): void {
    const entry = this.entries.get(address);
    if (entry && entry.blockedUntil <= this.now()) this.entries.delete(address);
  }
}
