import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { classifyAddress, isPublicAddress, resolveHost, validateOutboundUrl } from '../../net/outbound';

const MAX_URL_LENGTH = 2_048;
const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The URL of an endpoint as it will be stored, or a 400 naming `url`: absolute http(s), no
 * credentials, a public IP literal or a name whose every address is public right now (the check
 * runs again before each delivery, so a name that turns private later is refused then).
 * The URL parser reads every spelling of an address (decimal, octal, hex, short forms, IPv6
 * brackets, trailing dots) to the one the connection would use, and that is what is checked.
 */
export async function checkWebhookUrl(deps: Pick<Deps, 'config'>, input: string): Promise<string> {
  if (input.length > MAX_URL_LENGTH) throw validationError(`url: must be at most ${MAX_URL_LENGTH} characters`);
  const allow = deps.config.webhookAllowPrivateCidrs;
  const check = validateOutboundUrl(input.trim(), allow);
  if (!check.ok) throw validationError(`url: ${check.reason}`);
  if (!check.isIpLiteral) {
    let addresses: string[];
    try {
      addresses = await resolveHost(check.host, deps.config.dnsServers, { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ECANCELLED' || !code) throw validationError(`url: the DNS lookup of ${check.host} did not finish within ${LOOKUP_TIMEOUT_MS} ms; try again`);
      throw validationError(`url: the DNS lookup of ${check.host} failed (${code}); check the name or try again`);
    }
    if (addresses.length === 0) throw validationError(`url: ${check.host} does not resolve to any address (no A or AAAA record)`);
    const refused = addresses.find((address) => !isPublicAddress(address, allow));
    if (refused) throw validationError(`url: ${check.host} resolves to ${refused}, ${classifyAddress(refused)}; only public addresses are allowed`);
  }
  // Stored as the parser normalised it: what is shown is what is called.
  return check.url.toString();
}

