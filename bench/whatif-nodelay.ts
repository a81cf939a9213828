/**
 * What-if, not the service's behaviour: TCP_NODELAY on every SMTP connection nodemailer opens
 * (the relay pool's and SmtpSession's both go through nodemailer's SMTPConnection). Imported by
 * bench/dispatch-worker.ts when WHATIF_SMTP_NODELAY=1 and by bench/bare-smtp.ts on request, to
 * show what the fix suggested in docs/benchmarks.md would give. Without it, a message sent on a
 * connection waits for the receiver's delayed ACK (40 ms on Linux loopback) before its last
 * segment leaves (Nagle's algorithm).
 */
import type { Socket } from 'node:net';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

const proto = SMTPConnection.prototype as unknown as { _onConnect: () => void; _socket?: Socket };
const onConnect = proto._onConnect;
proto._onConnect = function (this: { _socket?: Socket }) {
  this._socket?.setNoDelay(true);
  return onConnect.call(this);
};
