// Warnings about the subscription machinery (Redis unreachable, ...), at most one a minute per
// text, so that an outage does not flood the log. Messages never hold a token (identity.ts).
import { log } from '../log/logger';

const QUIET_MS = 60_000;

export function warner(label: string): (message: string) => void {
  const last = new Map<string, number>();
  return (message) => {
    const now = Date.now();
    if ((last.get(message) ?? -Infinity) > now - QUIET_MS) return;
    if (last.size > 100) last.clear();
    last.set(message, now);
    log().warn({ component: label }, `${label}: ${message}`);
  };
}
