import { Writable } from 'node:stream';
import { createLog, type Log, type LogLevel } from '@/server/log';

export interface CapturedLog {
  log: Log;
  /** Every line written so far, parsed. */
  lines: Array<Record<string, any>>;
}

/** The server's own logger, writing JSON lines a test can read back. */
export function captureLog(level: LogLevel = 'info'): CapturedLog {
  const lines: Array<Record<string, any>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { log: createLog(level, destination), lines };
}
