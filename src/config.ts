// Every environment variable the gateway and the emulator read, parsed and validated in one
// place. A bad value stops the start with one line naming the variable.
import { readFileSync } from 'node:fs';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Config {
  /** Gateway port and interface. */
  port: number;
  host: string;
  /** The IM service; undefined: start the emulator in process. */
  imBaseUrl: string | undefined;
  /** app_id sent when the caller gives none. */
  imAppId: string;
  /** The emulator's admin token; undefined: generated at start and printed. */
  imAdminToken: string | undefined;
  emulatorPort: number;
  /** Seed the in-process emulator with demo data. */
  emulatorSeed: boolean;
  redisUrl: string | undefined;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  retries: number;
  connections: number;
  /** Sockets of `connections` that subscription polls may use at once (the rest stay free for queries). */
  pollConnections: number;
  pollIntervalMs: number;
  /** Heartbeat (`{}`) period of a subscription over multipart HTTP (Apollo's protocol: about 5 s). */
  multipartHeartbeatMs: number;
  /** Hosts (host[:port]) an upload target may point at besides the IM service's own. */
  uploadHosts: string[];
  maxUploadBytes: number;
  /** Largest GraphQL query depth accepted. */
  maxDepth: number;
  /** Most aliases in one operation: each may cost REST calls that de-duplication cannot save. */
  maxAliases: number;
  /** Most lexical tokens in one GraphQL document: bounds the parser's work and recursion. */
  maxTokens: number;
  /** Largest request body that is not multipart (multipart may reach maxUploadBytes plus its fields). */
  maxBodyBytes: number;
  /** Largest WebSocket message once the connection is acknowledged. */
  maxWsPayloadBytes: number;
  /** Largest WebSocket message before `connection_init` is acknowledged (no identity checked yet). */
  maxWsInitBytes: number;
  /** Serve Prometheus metrics at GET /metrics. */
  metrics: boolean;
  /** Code answers of 1 KiB or more in br or gzip when the client accepts it. */
  compression: boolean;
  /**
   * Serve them on a listener of their own at this port (and metricsHost), never on the public one.
   * Default: 9464 when NODE_ENV=production; otherwise unset, and metrics are on the public port.
   */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Answer `__schema` and `__type`: on unless NODE_ENV=production; GraphiQL needs it. */
  introspection: boolean;
  /** On SIGTERM, how long requests in flight may take before what remains is cut. */
  shutdownTimeoutMs: number;
  /**
   * Serve GraphiQL to browsers at GET /graphql. Default: on with the in-process emulator, off
   * against a real service, whenever NODE_ENV=production and with INTROSPECTION=false (which it needs);
   * GRAPHIQL=true/false decides alone.
   */
  graphiql: boolean;
  /** /ready answers 503 when this many REST calls in a row failed (5xx or unreachable)... */
  readyFailedCalls: number;
  /** ...all within this window (older failures are stale). */
  readyWindowMs: number;
  /** Web origins that may read answers with credentials (CORS); `*`: any origin, without credentials. Empty: no CORS. */
  corsOrigins: string[];
  /** Variables that were set but no longer do anything: named at start, never an error (deployments keep working). */
  obsolete: string[];
  /** Identical reads in flight for one identity share one upstream call (src/rest/coalesce.ts). */
  coalesce: boolean;
  /** Identical queries in flight for one identity share one execution (src/gateway/execution/shared-execution.ts). */
  shareQueries: boolean;
  /** What `id` answers for a request that does not say (X-ID-Format): the service's IDs, or global IDs (schema/core/global-id.ts). */
  idFormat: 'service' | 'global';
  /** A development check: every REST reply deep-frozen, so code that changes a shared reply throws. */
  freezeReplies: boolean;
  /** Run queries and mutations compiled by graphql-jit where it can (src/gateway/execution/jit.ts). */
  jit: boolean;
  /** Compile an operation on its nth run (a document sent once is not worth compiling). */
  jitAfterRuns: number;
  /** Most REST calls an operation may be estimated to make before it runs (src/gateway/execution/cost.ts). */
  maxCost: number;
  /** `enforce`: refuse an operation over maxCost; `measure`: run it, log and count it. */
  costMode: CostMode;
  /** Most REST calls one request (or one subscription event) may make; later calls fail on their fields. */
  maxRestCalls: number;
  /** Most errors in one answer; the rest are summarised in one error with their count. */
  maxErrors: number;
  /** Largest answer (JSON bytes, estimated) before it is replaced by a RESPONSE_TOO_LARGE error. */
  maxResponseBytes: number;
  /** Most subscriptions open at once on one WebSocket. */
  maxSubscriptionsPerSocket: number;
  /** Most subscriptions open at once per identity, over every transport and (with Redis) every replica. */
  maxSubscriptionsPerIdentity: number;
  /** An app's own trusted documents (PERSISTED_DOCUMENTS): document text by hash (64 hex, lowercase). */
  persistedDocuments: ReadonlyMap<string, string>;
  /** Run only trusted documents: text queries and APQ registrations are refused. */
  persistedOnly: boolean;
  /** Most APQ documents kept in memory (without REDIS_URL): the least recently used go first. */
  apqMaxEntries: number;
  /** How long Redis keeps an APQ document after its last registration. */
  apqTtlSeconds: number;
  /** Operations per identity and window (src/gateway/rate-limit); undefined: no rate limit. */
  rateLimit: RateLimit | undefined;
  /** Most operations in one batched HTTP request (a JSON array body); 1: batching off. */
  maxBatch: number;
  /** LOG_LEVEL: the least level written. */
  logLevel: LogLevelName;
  /** One `info` line per request (method, path, status, time, operation); off by default. */
  logRequests: boolean;
  tracing: TracingConfig;
}

export interface RateLimit {
  /** Operations a caller may send at once, and per window on average. */
  limit: number;
  windowMs: number;
}

export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

export const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;

/** OpenTelemetry's standard variables, as far as the gateway honours them (README: Operations). */
export interface TracingConfig {
  /** false with OTEL_SDK_DISABLED=true: no span, no `traceparent` forwarded. */
  enabled: boolean;
  /** Where spans are posted (OTLP/HTTP); undefined: none are exported, trace context still propagates. */
  exportUrl: string | undefined;
  protocol: 'http/json' | 'http/protobuf';
  serviceName: string;
  sampler: (typeof SAMPLERS)[number];
  /** OTEL_TRACES_SAMPLER_ARG: the ratio of the traceidratio samplers. */
  samplerRatio: number;
}

export type CostMode = 'enforce' | 'measure';

/**
 * The examples' costliest operation (ChatHome, 20 conversations) is estimated at 83 REST calls
 * (test/security/cost-limit.test.ts keeps them all under a fifth of it); the fan-out queries of
 * issue 20 at a million and more.
 */
export const DEFAULT_MAX_COST = 1000;
/** Above MAX_COST: the estimate is an upper bound, so an accepted operation stays within it. */
export const DEFAULT_MAX_REST_CALLS = 1000;
export const DEFAULT_MAX_ERRORS = 100;
/** 16 MB: a page of 1,000 members with their profiles is about 0.5 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/**
 * A chat client's screens need a few subscriptions at once: unreadCounts, and conversationEvents
 * for the conversations open or on screen (a home list of 20 rows, each live, is 21). 50 leaves
 * room beyond that, and bounds what one socket costs to 50 polls an interval.
 */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET = 50;
/** Four sockets' worth (tabs, devices sharing a token, a reconnect overlapping the old socket). */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_IDENTITY = 200;

/** Apollo's BatchHttpLink sends up to 10 operations per request by default. */
export const DEFAULT_MAX_BATCH = 10;

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
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

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got ${JSON.stringify(env[name])})`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  const found = values.find((v) => v === raw);
  if (!found) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got ${JSON.stringify(env[name])})`);
  return found;
}

function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (/\s/.test(raw)) throw new ConfigError(`${name} must not contain white space`);
  return raw;
}

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
function manifestFile(env: Env, name: string): Map<string, string> {
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
}

const WINDOW_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const MAX_RATE_LIMIT = 1_000_000;
const MAX_RATE_WINDOW_MS = 3_600_000;

/** `RATE_LIMIT=<n>/<window>`: `100/1s`, `600/1m`, `5/500ms`; unset, empty or `off`: no limit. */
function rateLimit(env: Env, name: string): RateLimit | undefined {
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
  return { limit, windowMs };
}

function ratio(env: Env, name: string): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new ConfigError(`${name} must be a number from 0 to 1 (got ${JSON.stringify(raw)})`);
  return value;
}

/** The traces endpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
function tracesUrl(env: Env): string | undefined {
  const exporter = oneOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none'], 'otlp');
  const traces = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  const base = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  if (exporter === 'none') return undefined;
  return traces ?? (base ? `${base}/v1/traces` : undefined);
}

export function loadTracingConfig(env: Env): TracingConfig {
  const protocolVar = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  return {
    enabled: !flag(env, 'OTEL_SDK_DISABLED', false),
    exportUrl: tracesUrl(env),
    // grpc is not offered: OTLP/HTTP only.
    protocol: oneOf(env, protocolVar, ['http/protobuf', 'http/json'], 'http/protobuf'),
    serviceName: text(env, 'OTEL_SERVICE_NAME') ?? 'im-graphql-gateway',
    sampler: oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
    samplerRatio: ratio(env, 'OTEL_TRACES_SAMPLER_ARG'),
  };
}

/** FAST_PATH chose a second request pipeline; since one pipeline serves every request, it is ignored. */
const OBSOLETE = ['FAST_PATH'];

/** The Prometheus exporters' usual port (OpenTelemetry's among them). */
const PRODUCTION_METRICS_PORT = 9464;

/** GraphiQL reads the schema by introspection: one on and the other off, both explicit, is a contradiction. */
function introspectionAndGraphiql(env: Env, production: boolean, imBaseUrl: string | undefined) {
  const asked = env.INTROSPECTION?.trim() ? flag(env, 'INTROSPECTION', true) : undefined;
  const graphiql = flag(env, 'GRAPHIQL', !imBaseUrl && !production && asked !== false);
  if (graphiql && asked === false)
    throw new ConfigError('INTROSPECTION=false cannot hold with GRAPHIQL on (GraphiQL reads the schema by introspection)');
  return { graphiql, introspection: asked ?? (graphiql || !production) };
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = int(env, 'PORT', 4000, 1, 65535);
  const emulatorPort = int(env, 'EMULATOR_PORT', 4001, 1, 65535);
  const imBaseUrl = url(env, 'IM_BASE_URL', ['http:', 'https:']);
  if (!imBaseUrl && port === emulatorPort) {
    throw new ConfigError(`PORT and EMULATOR_PORT must differ (both ${port})`);
  }
  const uploadHosts = (env.UPLOAD_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (const host of uploadHosts) {
    if (!/^[a-z0-9.-]+(:\d{1,5})?$/i.test(host)) throw new ConfigError(`UPLOAD_HOSTS: ${JSON.stringify(host)} is not host[:port]`);
  }
  const metricsPort = env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 1, 65535) : production ? PRODUCTION_METRICS_PORT : undefined;
  if (metricsPort === port) throw new ConfigError(`METRICS_PORT and PORT must differ (both ${port}): metrics stay off the public port`);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin such as https://app.example or *`);
    }
  }
  const connections = int(env, 'IM_CONNECTIONS', 64, 1, 10_000);
  return {
    port,
    host: text(env, 'HOST') ?? '127.0.0.1',
    imBaseUrl,
    imAppId: text(env, 'IM_APP_ID') ?? 'im-demo',
    imAdminToken: text(env, 'IM_ADMIN_TOKEN'),
    emulatorPort,
    emulatorSeed: flag(env, 'EMULATOR_SEED', true),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    connectTimeoutMs: int(env, 'IM_CONNECT_TIMEOUT_MS', 5_000, 1, 600_000),
    callTimeoutMs: int(env, 'IM_CALL_TIMEOUT_MS', 15_000, 1, 600_000),
    retries: int(env, 'IM_RETRIES', 2, 0, 10),
    connections,
    // A quarter by default: a burst of polls never holds the sockets queries need.
    pollConnections: int(env, 'IM_POLL_CONNECTIONS', Math.max(1, Math.floor(connections / 4)), 1, connections),
    pollIntervalMs: int(env, 'POLL_INTERVAL_MS', 2_000, 50, 3_600_000),
    multipartHeartbeatMs: int(env, 'HTTP_HEARTBEAT_MS', 5_000, 10, 60_000),
    uploadHosts,
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 100 * 1024 * 1024, 1, 10 * 1024 ** 3),
    maxDepth: int(env, 'MAX_QUERY_DEPTH', 12, 2, 100),
    maxAliases: int(env, 'MAX_QUERY_ALIASES', 50, 1, 10_000),
    maxTokens: int(env, 'MAX_QUERY_TOKENS', 2_000, 100, 100_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024, 1024, 1024 ** 3),
    maxWsPayloadBytes: int(env, 'MAX_WS_PAYLOAD_BYTES', 1024 * 1024, 1024, 1024 ** 3),
    maxWsInitBytes: int(env, 'MAX_WS_INIT_BYTES', 16 * 1024, 256, 1024 ** 3),
    metrics: flag(env, 'METRICS', true),
    compression: flag(env, 'COMPRESSION', true),
    metricsPort,
    metricsHost: text(env, 'METRICS_HOST') ?? '127.0.0.1',
    ...introspectionAndGraphiql(env, production, imBaseUrl),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 100, 3_600_000),
    readyFailedCalls: int(env, 'READY_FAILED_CALLS', 20, 1, 10_000),
    readyWindowMs: int(env, 'READY_WINDOW_MS', 60_000, 1_000, 3_600_000),
    corsOrigins,
    obsolete: OBSOLETE.filter((name) => env[name] !== undefined),
    coalesce: flag(env, 'IM_COALESCE', true),
    shareQueries: flag(env, 'SHARE_QUERIES', true),
    idFormat: oneOf(env, 'ID_FORMAT', ['service', 'global'] as const, 'service'),
    freezeReplies: flag(env, 'IM_FREEZE_REPLIES', false),
    jit: flag(env, 'GRAPHQL_JIT', true),
    jitAfterRuns: int(env, 'GRAPHQL_JIT_AFTER', 2, 1, 1_000_000),
    maxCost: int(env, 'MAX_COST', DEFAULT_MAX_COST, 1, 10_000_000),
    costMode: oneOf(env, 'COST_MODE', ['enforce', 'measure'], 'enforce'),
    maxRestCalls: int(env, 'MAX_REST_CALLS', DEFAULT_MAX_REST_CALLS, 1, 10_000_000),
    maxErrors: int(env, 'MAX_ERRORS', DEFAULT_MAX_ERRORS, 2, 1_000_000),
    maxResponseBytes: int(env, 'MAX_RESPONSE_BYTES', DEFAULT_MAX_RESPONSE_BYTES, 1024, 1024 ** 3),
    rateLimit: rateLimit(env, 'RATE_LIMIT'),
    maxBatch: int(env, 'MAX_BATCH', DEFAULT_MAX_BATCH, 1, 100),
    persistedDocuments: manifestFile(env, 'PERSISTED_DOCUMENTS'),
    persistedOnly: flag(env, 'PERSISTED_ONLY', false),
    apqMaxEntries: int(env, 'APQ_MAX_ENTRIES', 1_000, 1, 1_000_000),
    apqTtlSeconds: int(env, 'APQ_TTL_SECONDS', 24 * 3600, 1, 365 * 24 * 3600),
    maxSubscriptionsPerSocket: int(env, 'MAX_SUBSCRIPTIONS_PER_SOCKET', DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET, 1, 100_000),
    maxSubscriptionsPerIdentity: int(env, 'MAX_SUBSCRIPTIONS_PER_IDENTITY', DEFAULT_MAX_SUBSCRIPTIONS_PER_IDENTITY, 1, 1_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVEL_NAMES, 'info'),
    logRequests: flag(env, 'LOG_REQUESTS', false),
    tracing: loadTracingConfig(env),
  };
}

/** The config for the emulator-alone command (`npm run emulator`). */
export function loadEmulatorConfig(env: Env = process.env) {
  return {
    port: int(env, 'EMULATOR_PORT', 4001, 1, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    appId: text(env, 'IM_APP_ID') ?? 'im-demo',
    adminToken: text(env, 'IM_ADMIN_TOKEN'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVEL_NAMES, 'info'),
  };
}
