// The values of one call that must never leave it: the caller's token and any password, token or
// secret among the params. An upstream message may echo them ('token abc... expired'); they are
// cut out before the message reaches an error, a log or a metric.
import type { Caller } from './caller';

const SECRET_PARAM = /password|token|secret/i;
// Shorter values would blank out ordinary words of a message.
const MIN_SECRET_LENGTH = 4;

export function secretsOf(caller: Caller, params: Readonly<Record<string, unknown>>): string[] {
  const found: string[] = [];
  if (caller.token && caller.token.length >= MIN_SECRET_LENGTH) found.push(caller.token);
  for (const key in params) {
    const value = params[key];
    if (SECRET_PARAM.test(key) && typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) found.push(value);
  }
  return found;
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}
