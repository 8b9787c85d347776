// The one logger of the gateway and the emulator: pino, one JSON line per entry with `level`
// (its name), `time` (ISO 8601) and `msg`; entries of a traced request add `trace_id` and
// `span_id`. Secrets are removed by pino's `redact` before a line is written (REDACTED_PATHS).
// In development on a terminal, lines are made readable by pino-pretty when it is installed (a
// devDependency: production never loads it).
import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import type { LogLevelName as LogLevel } from '../config';

export type { Logger };

/** Keys whose values never reach a log line, at the top level and one or two levels down. */
const SECRET_KEYS = ['token', 'password', 'authorization', 'access-token', 'access_token', 'accessToken', 'adminToken', 'cookie', 'secret'];
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => {
  const at = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const member = at.startsWith('[') ? at : `.${at}`;
  return [at, `*${member}`, `*.*${member}`];
});

interface LoggerSettings {
  level?: LogLevel;
  /** Where lines go (tests read them); default stdout, pretty-printed when `pretty` allows. */
  destination?: DestinationStream;
  /** Pretty-print when stdout is a terminal; default: unless NODE_ENV=production. */
  pretty?: boolean;
}

const options = (level: LogLevel): LoggerOptions => ({
  level,
  base: undefined,
  messageKey: 'msg',
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
});

/** pino-pretty's stream when it is installed; undefined in production images (no devDependencies). */
function prettyStream(): DestinationStream | undefined {
  try {
    const load = createRequire(import.meta.url)('pino-pretty') as (opts: object) => DestinationStream;
    return load({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

export function createLogger(settings: LoggerSettings = {}): Logger {
  const level = settings.level ?? 'info';
  if (settings.destination) return pino(options(level), settings.destination);
  const pretty = (settings.pretty ?? process.env.NODE_ENV !== 'production') && process.stdout.isTTY === true;
  const stream = pretty ? prettyStream() : undefined;
  return stream ? pino(options(level), stream) : pino(options(level), pino.destination({ dest: 1, sync: true }));
}

let current: Logger | undefined;

/** The process's logger (made at `info` on first use, until main.ts sets the configured one). */
export function log(): Logger {
  return (current ??= createLogger());
}

export function setLogger(logger: Logger): void {
  current = logger;
}

/** The fields that tie an entry to its trace. */
export function traceFields(ids: { traceId?: string | undefined; spanId?: string | undefined }): Record<string, string> {
  return ids.traceId ? { trace_id: ids.traceId, ...(ids.spanId ? { span_id: ids.spanId } : {}) } : {};
}
