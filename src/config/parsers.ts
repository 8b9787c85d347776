// How a variable's text becomes a value: each parser checks its own variable and names it in the
// one-line error, and says for the generated page (docs/configuration.md) what it accepts and what
// an unset variable means.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

/** The values of the variables declared before the one being read, by variable name. */
export type Earlier = <T>(name: string) => T;

export interface Parser<T> {
  parse(env: Env, name: string, earlier: Earlier): T;
  /** What an unset (or empty) variable means, as the page shows it. */
  fallback: string;
  /** What the variable accepts, as the page shows it. */
  accepts: string;
}

const plain = (n: number) => String(n);
const range = (min: number, max: number) => `integer, ${plain(min)} to ${plain(max)}`;

export function integerIn(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

export const integer = (fallback: number, min: number, max: number): Parser<number> => ({
  parse: (env, name) => integerIn(env, name, fallback, min, max),
  fallback: plain(fallback),
  accepts: range(min, max),
});

export function urlIn(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL such as ${protocols[0]}//host:port (got ${JSON.stringify(raw)})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got ${JSON.stringify(raw)})`);
  }
  return raw.replace(/\/+$/, '');
}

export const url = (protocols: string[]): Parser<string | undefined> => ({
  parse: (env, name) => urlIn(env, name, protocols),
  fallback: 'unset',
  accepts: `${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`,
});

export function flagIn(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got ${JSON.stringify(env[name])})`);
}

const FLAG_TEXT = 'true or false';

export const flag = (fallback: boolean): Parser<boolean> => ({
  parse: (env, name) => flagIn(env, name, fallback),
  fallback: String(fallback),
  accepts: FLAG_TEXT,
});

/** A flag whose default depends on the variables before it (`fallback` says how, for the page). */
export const flagDefaulting = (fallback: string, decide: (earlier: Earlier, env: Env) => boolean): Parser<boolean> => ({
  parse: (env, name, earlier) => flagIn(env, name, decide(earlier, env)),
  fallback,
  accepts: FLAG_TEXT,
});

export function oneOfIn<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  const found = values.find((v) => v === raw);
  if (!found) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got ${JSON.stringify(env[name])})`);
  return found;
}

export const oneOf = <const T extends string>(values: readonly T[], fallback: T): Parser<T> => ({
  parse: (env, name) => oneOfIn(env, name, values, fallback),
  fallback,
  accepts: values.join(', '),
});

export function textIn(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (/\s/.test(raw)) throw new ConfigError(`${name} must not contain white space`);
  return raw;
}

/** A word without white space; `fallback` when unset (undefined: the value stays undefined). */
export function text(fallback: string): Parser<string>;
export function text(fallback: undefined, unsetMeans: string): Parser<string | undefined>;
export function text(fallback: string | undefined, unsetMeans?: string): Parser<string | undefined> {
  return {
    parse: (env, name) => textIn(env, name) ?? fallback,
    fallback: fallback ?? unsetMeans!,
    accepts: 'text without white space',
  };
}

/** A comma-separated list, each entry trimmed and checked by `check` (which throws its own error). */
export const list = (accepts: string, check: (entry: string) => void): Parser<string[]> => ({
  parse: (env, name) => {
    const entries = (env[name] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    entries.forEach(check);
    return entries;
  },
  fallback: 'empty',
  accepts,
});

/** Any text, read only to know whether it is set (NODE_ENV; an obsolete variable). */
export const raw = (fallback: string, accepts: string): Parser<string | undefined> => ({
  parse: (env, name) => env[name],
  fallback,
  accepts,
});

/**
 * A persisted document's hash from its ID: a SHA-256 in hex, bare (Apollo's persisted query lists
 * and APQ) or as `sha256:<hex>` (the GraphQL-over-HTTP appendix, codegen's client preset).
 * Undefined when the ID is neither.
 */
export function persistedDocumentHash(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = /^(?:sha256:)?([0-9a-f]{64})$/i.exec(id);
  return match?.[1]!.toLowerCase();
}

/** A manifest file (`{ "<documentId>": "<document>" }`), read and checked at start. */
export const manifestFile: Parser<ReadonlyMap<string, string>> = {
  parse(env, name) {
    const path = env[name]?.trim();
    const documents = new Map<string, string>();
    if (!path) return documents;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`${name}: ${path} is not a readable JSON file (${(err as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`${name}: ${path} must hold one JSON object, { "<documentId>": "<document>" }`);
    }
    for (const [id, document] of Object.entries(parsed)) {
      const hash = persistedDocumentHash(id);
      if (!hash) throw new ConfigError(`${name}: ${JSON.stringify(id)} is no documentId (a SHA-256 in hex, bare or as sha256:<hex>)`);
      if (typeof document !== 'string' || !document.trim())
        throw new ConfigError(`${name}: the document of ${id} must be a non-empty string`);
      documents.set(hash, document);
    }
    return documents;
  },
  fallback: 'unset',
  accepts: 'path of a JSON file',
};

export interface RateLimit {
  /** Operations a caller may send at once, and per window on average. */
  limit: number;
  windowMs: number;
}

const WINDOW_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const MAX_RATE_LIMIT = 1_000_000;
const MAX_RATE_WINDOW_MS = 3_600_000;

/** `RATE_LIMIT=<n>/<window>`: `100/1s`, `600/1m`, `5/500ms`; unset, empty or `off`: no limit. */
export const rateLimit: Parser<RateLimit | undefined> = {
  parse(env, name) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '' || raw.toLowerCase() === 'off') return undefined;
    const match = /^(\d+)\s*\/\s*(\d*)\s*(ms|s|m|h)$/i.exec(raw);
    const bad = (why: string) => new ConfigError(`${name} ${why} (got ${JSON.stringify(env[name])})`);
    if (!match) throw bad('must be <n>/<window> such as 100/1s or 600/1m (window units: ms, s, m, h)');
    const limit = Number(match[1]);
    const windowMs = Number(match[2] || '1') * WINDOW_UNITS_MS[match[3]!.toLowerCase()]!;
    if (limit < 1 || limit > MAX_RATE_LIMIT) throw bad(`must allow from 1 to ${MAX_RATE_LIMIT} operations per window`);
    if (windowMs < 1 || windowMs > MAX_RATE_WINDOW_MS) throw bad('must have a window from 1ms to 1h');
    // The bucket refills one operation every windowMs / limit: finer than a microsecond is no limit.
    if (limit > windowMs * 1_000) throw bad(`must allow at most ${MAX_RATE_LIMIT} operations a second`);
    // Written back as given (the configuration page's defaults are compared so); not copied by a spread.
    return Object.defineProperty({ limit, windowMs }, 'toString', { value: () => raw, enumerable: false });
  },
  fallback: 'off',
  accepts: '`<n>/<window>` (window in ms, s, m or h, up to 1h), or `off`',
};

/** A rate limit that is on unless turned `off`: unset or empty is `fallback` (written as RATE_LIMIT is). */
export const rateLimitOn = (fallback: string): Parser<RateLimit | undefined> => ({
  parse(env, name, earlier) {
    const raw = env[name]?.trim();
    return rateLimit.parse(raw === undefined || raw === '' ? { ...env, [name]: fallback } : env, name, earlier);
  },
  fallback,
  accepts: rateLimit.accepts,
});

/** An IPv4 or IPv6 address, or a CIDR block of either (`10.0.0.0/8`, `fd00::/8`). */
export function addressOrBlock(entry: string, name: string): { address: string; prefix: number | undefined; family: 'ipv4' | 'ipv6' } {
  const [address = '', prefixText, extra] = entry.split('/');
  const version = isIP(address);
  const prefix = prefixText === undefined ? undefined : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  const most = version === 4 ? 32 : 128;
  if (version === 0 || extra !== undefined || (prefix !== undefined && !(prefix >= 0 && prefix <= most))) {
    throw new ConfigError(`${name}: ${JSON.stringify(entry)} is not an IP address or CIDR block (10.0.0.1, 10.0.0.0/8, fd00::/8)`);
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export const ratio: Parser<number> = {
  parse(env, name) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return 1;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 1)
      throw new ConfigError(`${name} must be a number from 0 to 1 (got ${JSON.stringify(raw)})`);
    return value;
  },
  fallback: '1',
  accepts: 'number, 0 to 1',
};
