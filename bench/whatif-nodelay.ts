/**
 * TCP_NODELAY on every SMTP connection nodemailer opens, for the bare floor (bench/bare-smtp.ts):
 * the service sets it on its own sockets, bare nodemailer does not. Without it, a message sent on
 * a connection waits for the receiver's delayed ACK (40 ms on Linux loopback) before its last
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
