// A logger whose JSON lines the test reads back (the logger's destination is injected).
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log/logger';
import type { LogLevelName } from '../../src/config';

export interface LogEntry {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

/** `entries` fills as lines are written (pino writes each line whole); `onEntry` sees each. */
export function captureLog(
  level: LogLevelName = 'info',
  onEntry?: (entry: LogEntry) => void,
): { logger: Logger; text(): string; entries: LogEntry[] } {
  let text = '';
  const entries: LogEntry[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString('utf8');
      text += line;
      for (const part of line.split('\n').filter(Boolean)) {
        const entry = JSON.parse(part) as LogEntry;
        entries.push(entry);
        onEntry?.(entry);
      }
      done();
    },
  });
  return { logger: createLogger({ level, destination }), text: () => text, entries };
}
