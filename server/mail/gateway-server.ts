import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import type { Deps } from '../deps';
import type { Log } from '../log';
import { AuthThrottle } from '../services/smtp-gateway/auth-throttle';
import { MemoryBudget } from '../services/smtp-gateway/memory-budget';
import { admitSmtpKey } from '../services/smtp-gateway/credentials';
import { relayMessage } from '../services/smtp-gateway/relay';
import { INTERNAL_FAILURE, replyError, replyForError, type SmtpReply } from '../services/smtp-gateway/replies';
import { EMAIL_LIMITS } from '../services/emails/accept/limits';
import type { Principal } from '../services/shared/principal';
import type { GatewayTls } from './gateway-tls';

/** The gateway's bounds on clients (docs/smtp-gateway.md); tests shorten the timeouts. */
export interface GatewayLimits {
  /** Largest message (the SIZE extension): the API's 5 MB of body and 10 MB of attachments, base64-encoded, with room for headers. */
  maxBytes: number;
  /** Connections at once from one client address, and in all. */
  perClient: number;
  maxClients: number;
  /** Idle time allowed between commands (and between chunks of DATA). */
  idleMs: number;
  /** A whole connection's life: a client trickling one byte a minute is cut off at this. */
  sessionMs: number;
  /** Message bytes held in memory at once, in all and per organization (SMTP_GATEWAY_MEMORY_BYTES, SMTP_GATEWAY_ORG_MEMORY_BYTES). */
  memoryBytes: number;
  organizationMemoryBytes: number;
}

export const GATEWAY_LIMITS: GatewayLimits = {
  maxBytes: 40 * 1024 * 1024,
  perClient: 20,
  maxClients: 500,
  idleMs: 60_000,
  sessionMs: 10 * 60_000,
  // Without these, 500 connections of 40 MB each could make the process hold 20 GB. 256 MiB is six
  // largest messages at once and thousands of ordinary ones; one organization gets a quarter.
  memoryBytes: 256 * 1024 * 1024,
  organizationMemoryBytes: 64 * 1024 * 1024,
};

interface GatewayOptions {
  deps: Deps;
  /** Ports to listen on; a missing one is off, 0 picks a free one. */
  ports: { starttls?: number; implicitTls?: number };
  host?: string;
  /** MAIL_HOST: the greeting's name. */
  name: string;
  tls: GatewayTls;
  limits?: Partial<GatewayLimits>;
  log?: Log;
}

export interface SmtpGateway {
  ports: { starttls: number | null; implicitTls: number | null };
  /** Swaps in a renewed certificate for new connections (SIGHUP). */
  reloadTls(tls: GatewayTls): void;
  /** Message bytes held in memory right now, across all connections. */
  heldBytes(): number;
  close(): Promise<void>;
}

/** What a session keeps between commands: the password it logged in with, and the key as of its MAIL FROM. */
interface GatewayUser {
  secret: string;
  keyId: string | null;
}
type Session = SMTPServerSession & { principal?: Principal };
type Done = (error?: Error | null) => void;

const refuse = (code: number, enhanced: string, text: string) => replyError({ code, enhanced, text });

/**
 * The SMTP relay gateway: applications that only speak SMTP log in with a sending_access key and
 * hand over a message, which goes through the same send service as `POST /emails`
 * (services/smtp-gateway). One SMTPServer per port: STARTTLS (AUTH only after it) and implicit TLS.
 */
export async function startSmtpGateway(options: GatewayOptions): Promise<SmtpGateway> {
  const { deps } = options;
  const log = (options.log ?? deps.log).child({ part: 'smtp-gateway' });
  const { memoryBytes, orgMemoryBytes } = deps.config.smtpGateway;
  const limits = { ...GATEWAY_LIMITS, memoryBytes, organizationMemoryBytes: orgMemoryBytes, ...options.limits };
  const throttle = new AuthThrottle(() => deps.clock.now().getTime());
  const perClient = new Map<string, number>();
  const budget = new MemoryBudget(limits.memoryBytes, limits.organizationMemoryBytes);
  // What a session's message in DATA holds, given back if the connection goes before the message ends.
  const holding = new Map<string, () => void>();

  const handlers = {
    onConnect(session: SMTPServerSession, callback: Done) {
      const address = session.remoteAddress;
      perClient.set(address, (perClient.get(address) ?? 0) + 1);
      const blocked = throttle.blockedFor(address);
      if (blocked > 0) return callback(refuse(421, '4.7.0', `Too many failed logins from ${address}; try again in ${Math.ceil(blocked / 1000)} s`));
      if (perClient.get(address)! > limits.perClient) return callback(refuse(421, '4.7.0', `Too many connections from ${address} (at most ${limits.perClient} at once)`));
      callback();
    },

    onClose(session: SMTPServerSession) {
      holding.get(session.id)?.();
      const left = (perClient.get(session.remoteAddress) ?? 1) - 1;
      if (left > 0) perClient.set(session.remoteAddress, left);
      else perClient.delete(session.remoteAddress);
    },

    onAuth(auth: SMTPServerAuthentication, session: SMTPServerSession, callback: (error: Error | null | undefined, response?: { user: GatewayUser }) => void) {
      const address = session.remoteAddress;
      if (throttle.blockedFor(address) > 0) return callback(refuse(421, '4.7.0', 'Too many failed logins; try again later'));
      admitSmtpKey(deps, auth.password ?? '', { countsAsMessage: false }).then(
        (admission) => {
          if (admission.reply) {
            const blocked = throttle.failed(address);
            log.info({ client: address, blocked: blocked > 0 }, 'SMTP login refused');
            if (blocked > 0) return callback(refuse(421, '4.7.0', `Too many failed logins; try again in ${Math.ceil(blocked / 1000)} s`));
            return callback(replyError(admission.reply));
          }
          throttle.succeeded(address);
          callback(null, { user: { secret: auth.password ?? '', keyId: admission.principal.keyId } });
        },
        (error: unknown) => callback(replyError(failure(error, 'login'))),
      );
    },

    onMailFrom(_address: SMTPServerAddress, session: Session, callback: Done) {
      const user = session.user as unknown as GatewayUser | undefined;
      if (!user) return callback(refuse(530, '5.7.0', 'Authentication required: AUTH with a sending_access API key as the password'));
      admitSmtpKey(deps, user.secret, { countsAsMessage: true }).then(
        (admission) => {
          if (admission.reply) return callback(replyError(admission.reply));
          session.principal = admission.principal;
          callback();
        },
        (error: unknown) => callback(replyError(failure(error, 'MAIL FROM'))),
      );
    },

    onRcptTo(_address: SMTPServerAddress, session: SMTPServerSession, callback: Done) {
      if (session.envelope.rcptTo.length >= EMAIL_LIMITS.recipients) {
        return callback(refuse(452, '4.5.3', `Too many recipients: at most ${EMAIL_LIMITS.recipients} per message (to, cc and bcc together)`));
      }
      callback();
    },

    onData(stream: NodeJS.ReadableStream & { sizeExceeded?: boolean }, session: Session, callback: (error?: Error | null, message?: string) => void) {
      const organizationId = session.principal?.organizationId ?? '';
      let chunks: Buffer[] = [];
      let size = 0;
      let held = 0;
      let overBudget = false;
      const giveBack = () => {
        budget.give(organizationId, held);
        held = 0;
        chunks = [];
        if (holding.get(session.id) === giveBack) holding.delete(session.id);
      };
      holding.set(session.id, giveBack);
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (overBudget) return;
        // Past the size limit or the memory budget the rest is read and dropped: the answer is already known.
        if (size > limits.maxBytes) return giveBack();
        if (!budget.take(organizationId, chunk.length)) {
          overBudget = true;
          return giveBack();
        }
        held += chunk.length;
        chunks.push(chunk);
      });
      stream.once('error', (error: Error) => {
        giveBack();
        callback(error);
      });
      stream.once('end', () => {
        if (stream.sizeExceeded || size > limits.maxBytes) {
          giveBack();
          return callback(refuse(552, '5.3.4', `PAYLOAD_TOO_LARGE: Message too big (at most ${limits.maxBytes} bytes)`));
        }
        if (overBudget) {
          log.warn({ organizationId, bytes: size, heldBytes: budget.heldBytes }, 'SMTP message refused: memory budget full');
          return callback(refuse(452, '4.3.1', 'Insufficient system storage: too many messages are arriving at once; try again later'));
        }
        const principal = session.principal;
        if (!principal) {
          giveBack();
          return callback(refuse(503, '5.5.1', 'Bad sequence of commands'));
        }
        const envelope = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        const message = Buffer.concat(chunks);
        chunks = [];
        // The bytes stay taken until the relay is done with them, even if the client leaves first.
        holding.delete(session.id);
        relayMessage(deps, principal, message, envelope)
          .then(
            ({ id }) => {
              log.info({ emailId: id, keyId: principal.keyId, bytes: size, recipients: envelope.rcptTo.length }, 'message relayed');
              callback(null, `2.0.0 Ok: queued as ${id}`);
            },
            (error: unknown) => callback(replyError(failure(error, 'DATA'))),
          )
          .finally(giveBack);
      });
    },
  };

  /** The reply for a failure: a refusal of the send service as it is, anything else logged and temporary. */
  function failure(error: unknown, stage: string): SmtpReply {
    const reply = replyForError(error);
    if (reply) {
      log.info({ stage, reply: `${reply.code} ${reply.enhanced} ${reply.text}` }, 'SMTP refusal');
      return reply;
    }
    log.error({ err: error, stage }, 'SMTP gateway failure');
    return INTERNAL_FAILURE;
  }

  const common = {
    name: options.name,
    banner: 'EU Mail SMTP relay: AUTH with a sending_access API key',
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    size: limits.maxBytes,
    maxClients: limits.maxClients,
    disableReverseLookup: true,
    socketTimeout: limits.idleMs,
    closeTimeout: 5_000,
    key: options.tls.key,
    cert: options.tls.cert,
    minVersion: 'TLSv1.2' as const,
    ...handlers,
  };
  const servers: SMTPServer[] = [];
  const listen = async (port: number | undefined, secure: boolean): Promise<number | null> => {
    if (port === undefined) return null;
    const server = new SMTPServer({ ...common, secure });
    server.on('error', (error) => log.warn({ err: error }, 'SMTP error'));
    // The whole connection is bounded too: the idle timeout alone lets a byte a minute hold a slot forever.
    server.server.on('connection', (socket: Socket) => {
      const timer = setTimeout(() => socket.destroy(), limits.sessionMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, options.host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    servers.push(server);
    return (server.server.address() as AddressInfo).port;
  };
  const ports = { starttls: await listen(options.ports.starttls, false), implicitTls: await listen(options.ports.implicitTls, true) };
  return {
    ports,
    reloadTls(tls) {
      for (const server of servers) server.updateSecureContext({ key: tls.key, cert: tls.cert });
    },
    heldBytes: () => budget.heldBytes,
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined),
  };
}
