import type { Deps } from '../deps';
import type { Principal } from '../services/principal';

/** What every procedure sees. Authentication is lazy so that public procedures cost nothing. */
export interface Context {
  deps: Deps;
  requestId: string;
  /** 'api' for bearer keys over REST or tRPC, 'dashboard' for a signed-in person. */
  channel: 'api' | 'dashboard';
  authenticate: () => Promise<Principal | null>;
  setHeader: (name: string, value: string) => void;
}
