import type { Deps } from '../deps';
import type { Admission } from '../services/api-keys/admission';

/** What every procedure sees. Authentication is lazy so that public procedures cost nothing. */
export interface Context {
  deps: Deps;
  requestId: string;
  /** 'api' for bearer keys over REST or tRPC, 'dashboard' for a signed-in person. */
  channel: 'api' | 'dashboard';
  /** The caller, and for API keys the request already counted against the rate limit. */
  authenticate: () => Promise<Admission | null>;
  setHeader: (name: string, value: string) => void;
  /** A request header (lowercase name), for the few procedures that read one (Idempotency-Key). */
  header: (name: string) => string | undefined;
}
