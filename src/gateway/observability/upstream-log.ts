// One `warn` line when the IM service is down, slow or failing (unreachable, timed out, 5xx), at
// most one per endpoint per window, so that an outage does not flood the log: the next line tells
// how many were left out. Business errors (envelope codes) are the callers' concern: a `debug`
// line each. A line holds the endpoint's table key, never a path with values, a token or a stack.
import type { CallInfo } from '../../rest/client';
import { log, type Logger, traceFields } from '../../log/logger';

interface UpstreamLogOptions {
  /** Quiet time per endpoint after a line. Default 10 s. */
  windowMs?: number;
  /** Where lines go. Default: the process's logger. */
  logger?: Logger;
  now?: () => number;
}

/** What went wrong with the attempt, when it is trouble of the service itself. */
function trouble(info: CallInfo): string | undefined {
  if (info.error === 'unavailable') return 'unreachable';
  if (info.error === 'timeout') return 'timed out';
  if (info.status !== undefined && info.status >= 500) return `HTTP ${info.status}`;
  return undefined;
}

/** Reads how a REST attempt ended (rest-calls.ts). */
export function upstreamLog(options: UpstreamLogOptions = {}): (info: CallInfo) => void {
  const windowMs = options.windowMs ?? 10_000;

  const now = options.now ?? Date.now;
  // Keyed by endpoint table key: at most one entry per endpoint (113).
  const quiet = new Map<string, { until: number; suppressed: number }>();
  return (info) => {
    const what = trouble(info);
    // A call that went well (nearly every call) builds no line: nothing is logged for it.
    if (!what && !info.error) return;
    const logger = options.logger ?? log();
    const fields = {
      endpoint: info.endpoint,
      attempt: info.attempt,
      ms: Math.round(info.ms),
      ...(info.status !== undefined ? { status: info.status } : {}),
      ...(info.error ? { error: info.error } : {}),
      ...(info.code !== undefined ? { upstream_code: info.code } : {}),
      ...traceFields(info),
    };
    if (!what) {
      logger.debug(fields, 'IM call failed');
      return;
    }
    const at = now();
    const known = quiet.get(info.endpoint);
    if (known && at < known.until) {
      known.suppressed++;
      return;
    }
    const left = known?.suppressed ? `; ${known.suppressed} more since the last line` : '';
    logger.warn(
      { ...fields, ...(known?.suppressed ? { suppressed: known.suppressed } : {}) },
      `IM service trouble: ${info.endpoint} ${what} after ${fields.ms} ms (attempt ${info.attempt})${left}`,
    );
    quiet.set(info.endpoint, { until: at + windowMs, suppressed: 0 });
  };
}
