import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type Log = Logger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The process's one logger: JSON lines on stdout for whatever collects them, or readable lines
 * when a person watches a terminal. The pretty stream runs in-process (no worker thread), so the
 * bundled server needs no transport files beside it.
 */
export function createLog(level: LogLevel, destination?: DestinationStream): Log {
  const out = destination ?? (process.stdout.isTTY ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : pino.destination({ dest: 1, sync: false }));
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: pino.stdSerializers.err } }, out);
}

/** A logger that writes nothing, for code run outside the server (benchmarks' helpers, one-off scripts). */
export const silentLog: Log = pino({ level: 'silent' });
