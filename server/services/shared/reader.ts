import type { Principal } from './principal';

/**
 * Who reads a fix-it sentence. An application calling the API is told the calls that fix it; a
 * person signed in to the dashboard is told the page, which the dashboard links beside the
 * sentence. The API's own words never change for the dashboard's sake, nor the reverse.
 */
export type Reader = 'application' | 'person';

/** A signed-in person without a key is the dashboard; a key, or the process itself, is an application. */
export const readerOf = (principal: Pick<Principal, 'keyId' | 'userId'>): Reader => (principal.keyId === null && principal.userId !== null ? 'person' : 'application');
