import type { Reader } from '../shared/reader';

interface DomainFixes {
  /** A domain that is not the account's yet. */
  register: string;
  /** A registered domain whose records are not (all) published. */
  publishAndVerify: (domainId: string) => string;
  /** Where the DKIM value is given as the 255-byte strings some DNS providers need. */
  dkimStrings: string;
}

/** How to fix a sending domain, in the words each reader acts on (shared/reader.ts). */
const FIXES: Record<Reader, DomainFixes> = {
  application: {
    register: 'register it (POST /domains), publish the records it lists and verify it',
    publishAndVerify: (domainId) => `publish the records GET /domains/${domainId} lists and verify it with POST /domains/${domainId}/verify`,
    dkimStrings: 'GET /domains/{id} lists it split into 255-byte strings',
  },
  person: {
    register: 'add it on the Domains page, publish the records shown there and verify it',
    publishAndVerify: () => 'publish the records shown on its domain page, then click Verify now there',
    dkimStrings: 'its domain page gives it split into 255-byte strings under Show full value',
  },
};

export const domainFixes = (reader: Reader): DomainFixes => FIXES[reader];
