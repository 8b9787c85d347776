// Every environment variable the gateway reads, declared once: the Config field it fills, its
// parser (which also words its error), its default, its group and one line of doc. The `Config`
// type, `loadConfig` and docs/configuration.md (`npm run docs:config`) all come from these lists.
// They are read in the order written: a variable may use those above it (IM_POLL_CONNECTIONS
// reads IM_CONNECTIONS), and with two bad values the first one written is the one named.
import {
  ConfigError,
  type Earlier,
  flag,
  flagDefaulting,
  flagIn,
  integer,
  integerIn,
  list,
  manifestFile,
  oneOf,
  oneOfIn,
  type Parser,
  rateLimit,
  rateLimitOn,
  addressOrBlock,
  ratio,
  raw,
  text,
  url,
  urlIn,
} from './parsers';
import { CALLBACK_FAULTS_SYNTAX, parseCallbackFaults } from './callback-faults';

/** The sections of docs/configuration.md, in order. */
export const GROUPS = {
  server: 'Server',
  service: 'The IM service',
  emulator: 'The emulator',
  subscriptions: 'Subscriptions',
  callbacks: 'Callbacks',
  limits: 'Limits',
  persisted: 'Persisted documents',
  execution: 'Execution',
  operations: 'Operations',
  logs: 'Logs',
  traces: 'Traces',
  development: 'Development',
} as const;

export type Group = keyof typeof GROUPS;

export interface Variable<T = unknown, F extends string | undefined = string | undefined> {
  name: string;
  /** The Config (or TracingConfig) field it fills; undefined: read by a variable below it. */
  field: F;
  group: Group;
  doc: string;
  parser: Parser<T>;
  /** What unset means, where the parser's own wording does not say it. */
  default?: string;
  /** A rule between this variable and those above it, checked once it is read. */
  check?: (earlier: Earlier) => void;
  /** Set but no longer read: named at start, never an error (deployments keep working). */
  obsolete?: true;
}

const variable = <const F extends string | undefined, T>(v: Variable<T, F>) => v;

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

/** OTLP over HTTP only: gRPC is not offered. */
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type Protocol = (typeof PROTOCOLS)[number];

export const COST_MODES = ['enforce', 'measure'] as const;
export type CostMode = (typeof COST_MODES)[number];

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
/**
 * Admission (src/gateway/admission/), for one replica on 2 cores: four of the costliest accepted
 * operations (MAX_COST each) run at once on the replica, two per identity, so that a canary's
 * `{ me { id } }` waits for a few of them on the event loop at most (bench:abuse).
 */
export const DEFAULT_MAX_COST_IN_FLIGHT = 4 * DEFAULT_MAX_COST;
export const DEFAULT_MAX_COST_IN_FLIGHT_PER_IDENTITY = 2 * DEFAULT_MAX_COST;
/** A batch of MAX_BATCH twice over. */
export const DEFAULT_ADMISSION_QUEUE = 2 * DEFAULT_MAX_BATCH;
export const DEFAULT_ADMISSION_WAIT_MS = 3_000;

/** The Prometheus exporters' usual port (OpenTelemetry's among them). */
const PRODUCTION_METRICS_PORT = 9464;

const ERROR_DETAILS = ['full', 'masked'] as const;
const production = (earlier: Earlier) => earlier<string | undefined>('NODE_ENV') === 'production';
const port = (fallback: number) => integer(fallback, 1, 65535);

/** The variables of `Config`, in the order they are read. */
export const GATEWAY_VARIABLES = [
  variable({
    name: 'NODE_ENV',
    field: undefined,
    group: 'server',
    parser: raw('unset', '`production`, or anything else'),
    doc: '`production` turns GraphiQL and introspection off and moves metrics to port 9464 by default',
  }),
  variable({ name: 'PORT', field: 'port', group: 'server', parser: port(4000), doc: 'gateway port' }),
  variable({
    name: 'ERROR_DETAIL',
    field: 'errorDetail',
    group: 'server',
    parser: {
      parse: (env, name, earlier) => oneOfIn(env, name, ERROR_DETAILS, production(earlier) ? 'masked' : 'full'),
      fallback: 'see meaning',
      accepts: ERROR_DETAILS.join(', '),
    },
    doc: "what errors from the IM service or the gateway's inside tell clients: `full` (the REST endpoint, the service's message and code) or `masked` (the code, an `upstreamCode` the client can act on, and a `requestId` that the log line with the detail also has); unset: `masked` when `NODE_ENV=production`, otherwise `full`",
  }),
  variable({
    name: 'EMULATOR_PORT',
    field: 'emulatorPort',
    group: 'emulator',
    parser: port(4001),
    doc: 'port of the emulator (in process, or alone with `npm run emulator`)',
  }),
  variable({
    name: 'IM_BASE_URL',
    field: 'imBaseUrl',
    group: 'service',
    parser: url(['http:', 'https:']),
    doc: 'the IM service; unset: start the emulator in process',
    check(earlier) {
      const gateway = earlier<number>('PORT');
      if (!earlier('IM_BASE_URL') && gateway === earlier<number>('EMULATOR_PORT')) {
        throw new ConfigError(`PORT and EMULATOR_PORT must differ (both ${gateway})`);
      }
    },
  }),
  variable({
    name: 'UPLOAD_HOSTS',
    field: 'uploadHosts',
    group: 'service',
    parser: list('`host[:port]`, comma-separated', (host) => {
      if (!/^[a-z0-9.-]+(:\d{1,5})?$/i.test(host)) throw new ConfigError(`UPLOAD_HOSTS: ${JSON.stringify(host)} is not host[:port]`);
    }),
    doc: 'extra storage hosts upload targets may point at and downloads may be fetched from (a redirect elsewhere is passed on)',
  }),
  variable({
    name: 'METRICS_PORT',
    field: 'metricsPort',
    group: 'operations',
    parser: {
      parse: (env, name, earlier): number | undefined =>
        env[name]?.trim() ? integerIn(env, name, 0, 1, 65535) : production(earlier) ? PRODUCTION_METRICS_PORT : undefined,
      fallback: 'see meaning',
      accepts: 'integer, 1 to 65535',
    },
    doc: 'serve metrics on a listener of their own at this port, and `GET /metrics` on the public port is a 404; unset: 9464 when `NODE_ENV=production`, otherwise metrics are on the public port',
    check(earlier) {
      const gateway = earlier<number>('PORT');
      if (earlier('METRICS_PORT') === gateway)
        throw new ConfigError(`METRICS_PORT and PORT must differ (both ${gateway}): metrics stay off the public port`);
    },
  }),
  variable({
    name: 'CORS_ORIGINS',
    field: 'corsOrigins',
    group: 'server',
    parser: list('origins, comma-separated, or `*`', (origin) => {
      if (origin !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin)) {
        throw new ConfigError(`CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin such as https://app.example or *`);
      }
    }),
    doc: 'web origins (`https://app.example`) whose pages may read answers, with credentials; `*` lets any origin read without credentials; empty: no CORS headers (same origin and non-browser clients only); the same list admits WebSocket pages',
  }),
  variable({
    name: 'IM_CONNECTIONS',
    field: 'connections',
    group: 'service',
    parser: integer(64, 1, 10_000),
    doc: 'sockets to the IM service at most',
  }),
  variable({
    name: 'HOST',
    field: 'host',
    group: 'server',
    parser: text('127.0.0.1'),
    doc: 'interface the gateway (and the in-process emulator) listen on',
  }),
  variable({
    name: 'IM_APP_ID',
    field: 'imAppId',
    group: 'service',
    parser: text('im-demo'),
    doc: "`app_id` used when the caller sends none; the emulator's app",
  }),
  variable({
    name: 'IM_ADMIN_TOKEN',
    field: 'imAdminToken',
    group: 'service',
    parser: text(undefined, 'generated'),
    doc: "the emulator's admin token (printed at start when generated); with it the gateway reads other users' public fields (see [Identity](identity.md))",
  }),
  variable({
    name: 'EMULATOR_SEED',
    field: 'emulatorSeed',
    group: 'emulator',
    parser: flag(true),
    doc: 'seed the in-process emulator with demo data',
  }),
  variable({
    name: 'REDIS_URL',
    field: 'redisUrl',
    group: 'server',
    parser: url(['redis:', 'rediss:']),
    doc: 'Redis for multi-replica subscriptions, rate limits and the shared APQ store (`redis://127.0.0.1:6379`)',
  }),
  variable({
    name: 'IM_CONNECT_TIMEOUT_MS',
    field: 'connectTimeoutMs',
    group: 'service',
    parser: integer(5_000, 1, 600_000),
    doc: 'connect timeout to the IM service',
  }),
  variable({
    name: 'IM_CALL_TIMEOUT_MS',
    field: 'callTimeoutMs',
    group: 'service',
    parser: integer(15_000, 1, 600_000),
    doc: "time allowed for one attempt of a REST call, from waiting for a connection to the answer's last byte, kept to within about 25 ms (a file download: until its headers, then, more coarsely, to each pause in its body)",
  }),
  variable({
    name: 'IM_RETRIES',
    field: 'retries',
    group: 'service',
    parser: integer(2, 0, 10),
    doc: 'extra attempts for idempotent GETs on connection errors or 502/503/504',
  }),
  variable({
    name: 'IM_POLL_CONNECTIONS',
    field: 'pollConnections',
    group: 'subscriptions',
    // A quarter by default: a burst of polls never holds the sockets queries need.
    parser: {
      parse: (env, name, earlier) => {
        const connections = earlier<number>('IM_CONNECTIONS');
        return integerIn(env, name, Math.max(1, Math.floor(connections / 4)), 1, connections);
      },
      fallback: '`IM_CONNECTIONS` / 4',
      accepts: 'integer, 1 to `IM_CONNECTIONS`',
    },
    doc: 'sockets of `IM_CONNECTIONS` subscription polls may use at once (the others wait; queries are not limited)',
  }),
  variable({
    name: 'POLL_INTERVAL_MS',
    field: 'pollIntervalMs',
    group: 'subscriptions',
    parser: integer(2_000, 50, 3_600_000),
    doc: 'subscription poll interval (while no message callbacks arrive: see `POLL_INTERVAL_WITH_CALLBACKS_MS`)',
  }),
  variable({
    name: 'POLL_INTERVAL_WITH_CALLBACKS_MS',
    field: 'pollIntervalWithCallbacksMs',
    group: 'subscriptions',
    parser: integer(30_000, 50, 3_600_000),
    doc: "poll interval of pushed and roster subscriptions while the service's message callbacks arrive: the safety net (see [Live updates](subscriptions.md#with-callbacks))",
  }),
  variable({
    name: 'HTTP_HEARTBEAT_MS',
    field: 'multipartHeartbeatMs',
    group: 'subscriptions',
    parser: integer(5_000, 10, 60_000),
    doc: "period of the `{}` heartbeat of a subscription over multipart HTTP (Apollo's protocol)",
  }),
  variable({
    name: 'HTTP_SUBSCRIBER_BACKLOG_EVENTS',
    field: 'httpSubscriberBacklogEvents',
    group: 'subscriptions',
    parser: integer(1_000, 1, 1_000_000),
    doc: 'events an SSE or multipart subscriber may leave unread before it is dropped (a final `SLOW_CONSUMER` error, then the end)',
  }),
  variable({
    name: 'HTTP_SUBSCRIBER_BACKLOG_BYTES',
    field: 'httpSubscriberBacklogBytes',
    group: 'subscriptions',
    parser: integer(1024 * 1024, 1024, 1024 * 1024 * 1024),
    doc: 'bytes (of JSON) an SSE or multipart subscriber may leave unread before it is dropped, as for HTTP_SUBSCRIBER_BACKLOG_EVENTS',
  }),
  variable({
    name: 'MAX_UPLOAD_BYTES',
    field: 'maxUploadBytes',
    group: 'limits',
    parser: integer(100 * 1024 * 1024, 1, 10 * 1024 ** 3),
    doc: "largest upload; a multipart request's whole body may be this plus about 2 MiB",
  }),
  variable({
    name: 'MAX_QUERY_DEPTH',
    field: 'maxDepth',
    group: 'limits',
    parser: integer(12, 2, 100),
    doc: 'deepest GraphQL query accepted',
  }),
  variable({
    name: 'MAX_QUERY_ALIASES',
    field: 'maxAliases',
    group: 'limits',
    parser: integer(50, 1, 10_000),
    doc: 'most aliases in one operation: each may cost REST calls that de-duplication cannot save',
  }),
  variable({
    name: 'MAX_QUERY_TOKENS',
    field: 'maxTokens',
    group: 'limits',
    parser: integer(2_000, 100, 100_000),
    doc: 'most tokens (names, punctuation, values; not comments) in one GraphQL document',
  }),
  variable({
    name: 'MAX_BODY_BYTES',
    field: 'maxBodyBytes',
    group: 'limits',
    parser: integer(2 * 1024 * 1024, 1024, 1024 ** 3),
    doc: 'largest request body that is not multipart (413 above it)',
  }),
  variable({
    name: 'MAX_WS_PAYLOAD_BYTES',
    field: 'maxWsPayloadBytes',
    group: 'limits',
    parser: integer(1024 * 1024, 1024, 1024 ** 3),
    doc: 'largest WebSocket message once the connection is acknowledged (close 1009 above it)',
  }),
  variable({
    name: 'MAX_WS_INIT_BYTES',
    field: 'maxWsInitBytes',
    group: 'limits',
    parser: integer(16 * 1024, 256, 1024 ** 3),
    doc: 'largest WebSocket message before `connection_init` is acknowledged (no identity checked yet)',
  }),
  variable({
    name: 'METRICS',
    field: 'metrics',
    group: 'operations',
    parser: flag(true),
    doc: 'serve Prometheus metrics at `GET /metrics` (false: no such route, no metrics listener)',
  }),
  variable({
    name: 'COMPRESSION',
    field: 'compression',
    group: 'server',
    parser: flag(true),
    doc: "code answers of 1 KiB or more in brotli or gzip when the request's `Accept-Encoding` asks (see [Operations](operations.md)); false: never",
  }),
  variable({
    name: 'METRICS_HOST',
    field: 'metricsHost',
    group: 'operations',
    parser: text('127.0.0.1'),
    doc: 'interface of the metrics listener (`0.0.0.0` for a scraper in another container or host)',
  }),
  // GraphiQL reads the schema by introspection: one on and the other off, both explicit, is a
  // contradiction. INTROSPECTION is checked first, as GRAPHIQL's default depends on it.
  variable({
    name: 'GRAPHIQL',
    field: 'graphiql',
    group: 'server',
    parser: flagDefaulting('see meaning', (earlier, env) => {
      const asked = env.INTROSPECTION?.trim() ? flagIn(env, 'INTROSPECTION', true) : undefined;
      return !earlier('IM_BASE_URL') && !production(earlier) && asked !== false;
    }),
    doc: 'serve GraphiQL to browsers at `GET /graphql`; unset: on with the in-process emulator, off with `IM_BASE_URL`, with `INTROSPECTION=false` and when `NODE_ENV=production` (only an explicit `GRAPHIQL=true` turns it on there)',
  }),
  variable({
    name: 'INTROSPECTION',
    field: 'introspection',
    group: 'server',
    parser: flagDefaulting('see meaning', (earlier) => earlier<boolean>('GRAPHIQL') || !production(earlier)),
    doc: 'answer `__schema` and `__type` queries; unset: on, except with `NODE_ENV=production` (unless GraphiQL is on, which needs it). Off: refused with `INTROSPECTION_DISABLED`, and validation errors no longer suggest names ("Did you mean ...")',
    check(earlier) {
      if (earlier<boolean>('GRAPHIQL') && !earlier<boolean>('INTROSPECTION'))
        throw new ConfigError('INTROSPECTION=false cannot hold with GRAPHIQL on (GraphiQL reads the schema by introspection)');
    },
  }),
  variable({
    name: 'SHUTDOWN_TIMEOUT_MS',
    field: 'shutdownTimeoutMs',
    group: 'operations',
    parser: integer(20_000, 100, 3_600_000),
    doc: 'on SIGTERM, how long the requests in flight may take to finish; then what remains is cut and logged (see [Operations](operations.md))',
  }),
  variable({
    name: 'READY_FAILED_CALLS',
    field: 'readyFailedCalls',
    group: 'operations',
    parser: integer(20, 1, 10_000),
    doc: '`GET /ready` answers 503 when this many REST calls in a row failed with 5xx or no connection...',
  }),
  variable({
    name: 'READY_WINDOW_MS',
    field: 'readyWindowMs',
    group: 'operations',
    parser: integer(60_000, 1_000, 3_600_000),
    doc: '...all within this window (older failures are stale, so a replica out of rotation comes back)',
  }),
  variable({
    name: 'FAST_PATH',
    field: undefined,
    group: 'server',
    parser: raw('unset', 'anything'),
    doc: 'obsolete, ignored (named in a warning at start): it chose a second request pipeline, and one pipeline now serves every request',
    obsolete: true,
  }),
  variable({
    name: 'IM_COALESCE',
    field: 'coalesce',
    group: 'execution',
    parser: flag(true),
    doc: 'identical reads in flight at once for the same identity (token, app_id, user_id, group_id, endpoint and parameters) share one REST call; never writes, `issue` endpoints or calls with an abort signal',
  }),
  variable({
    name: 'SHARE_QUERIES',
    field: 'shareQueries',
    group: 'execution',
    parser: flag(true),
    doc: 'identical queries in flight at once for the same identity (parsed document, operation name, variables; token, app_id, user_id, group_id) share one execution: the later ones wait for the first and answer its result (`im_gateway_shared_executions_total`); never mutations, subscriptions or `@defer`/`@stream`; each request passes its own limits first',
  }),
  variable({
    name: 'ID_FORMAT',
    field: 'idFormat',
    group: 'execution',
    parser: oneOf(['service', 'global'], 'service'),
    doc: "what `id` answers on Nodes other than User and Group when a request sends no `X-ID-Format`: `service` (the service's IDs, as before global IDs) or `global` (global IDs; the default from the first release on or after 2027-06-01); see [Global IDs](identity.md#global-ids-and-nodeid)",
  }),
  variable({
    name: 'IM_FREEZE_REPLIES',
    field: 'freezeReplies',
    group: 'development',
    parser: flag(false),
    doc: 'a development check (the test suite turns it on): every REST reply deep-frozen, so code that changes a reply shared by resolvers or coalesced requests throws',
  }),
  variable({
    name: 'GRAPHQL_JIT',
    field: 'jit',
    group: 'execution',
    parser: flag(true),
    doc: 'run queries and mutations as graphql-jit compiles them (graphql-js for what it cannot compile, for subscriptions, and for variables graphql-js refuses): about half the CPU per query in `bench:peers`, with the same JSON as graphql-js (errors keep their `locations`, `errors` before `data`); `false` runs everything on graphql-js',
  }),
  variable({
    name: 'GRAPHQL_JIT_AFTER',
    field: 'jitAfterRuns',
    group: 'execution',
    parser: integer(2, 1, 1_000_000),
    doc: 'compile an operation on its nth run (per document and operation name): compiling costs 1-5 ms, tens of runs of a small query, so a document sent once is never compiled',
  }),
  variable({
    name: 'MAX_COST',
    field: 'maxCost',
    group: 'limits',
    parser: integer(DEFAULT_MAX_COST, 1, 10_000_000),
    doc: 'most REST calls an operation may be estimated to make (see [Limits](limits.md))',
  }),
  variable({
    name: 'COST_MODE',
    field: 'costMode',
    group: 'limits',
    parser: oneOf(COST_MODES, 'enforce'),
    doc: '`enforce`: refuse operations over `MAX_COST`; `measure`: run them, log a line and count them',
  }),
  variable({
    name: 'MAX_REST_CALLS',
    field: 'maxRestCalls',
    group: 'limits',
    parser: integer(DEFAULT_MAX_REST_CALLS, 1, 10_000_000),
    doc: 'most REST calls one request (or subscription event) makes; further calls fail with `UPSTREAM_BUDGET_EXCEEDED`',
  }),
  variable({
    name: 'MAX_ERRORS',
    field: 'maxErrors',
    group: 'limits',
    parser: integer(DEFAULT_MAX_ERRORS, 2, 1_000_000),
    doc: 'most errors in one answer (the rest summed up in one `TOO_MANY_ERRORS`)',
  }),
  variable({
    name: 'MAX_RESPONSE_BYTES',
    field: 'maxResponseBytes',
    group: 'limits',
    parser: integer(DEFAULT_MAX_RESPONSE_BYTES, 1024, 1024 ** 3),
    doc: 'largest answer (JSON, estimated); above it one `RESPONSE_TOO_LARGE` error',
  }),
  variable({
    name: 'RATE_LIMIT',
    field: 'rateLimit',
    group: 'limits',
    parser: rateLimit,
    doc: 'operations per identity (a token the service accepted, with its app; otherwise the client address) and window, as `<n>/<window>`: `100/1s`, `600/1m` (see [Rate limits](limits.md#rate-limits)); shared through Redis with `REDIS_URL`',
  }),
  variable({
    name: 'SIGN_IN_LIMIT_ADDRESS',
    field: 'signInLimitAddress',
    group: 'limits',
    parser: rateLimitOn('10/1m'),
    doc: 'sign-in and password operations per client address and window (each such field of a document counts; a success gives its try back), refused with `RATE_LIMITED` before any REST call; on even without `RATE_LIMIT` (see [Sign-in limits](limits.md#sign-in-limits))',
  }),
  variable({
    name: 'SIGN_IN_LIMIT_NAME',
    field: 'signInLimitName',
    group: 'limits',
    parser: rateLimitOn('5/1m'),
    doc: 'the same operations per account (per app: its user ID, and the user name, mobile and e-mail the gateway has seen it sign in with) and window, from any address',
  }),
  variable({
    name: 'REGISTRATION_LIMIT_ADDRESS',
    field: 'registrationLimitAddress',
    group: 'limits',
    parser: rateLimitOn('20/1m'),
    doc: 'users registered per client address and window (each name of `registerUsers` counts), refused with `RATE_LIMITED` before any REST call (see [Fan-out limits](limits.md#fan-out-limits))',
  }),
  variable({
    name: 'RECIPIENT_LIMIT',
    field: 'recipientLimit',
    group: 'limits',
    parser: rateLimitOn('300/10m'),
    doc: 'recipients per identity and window of friend requests, group invitations and messages to several targets, refused with `RATE_LIMITED` before any REST call (see [Fan-out limits](limits.md#fan-out-limits))',
  }),
  variable({
    name: 'TRUSTED_PROXIES',
    field: 'trustedProxies',
    group: 'server',
    parser: list('IP addresses or CIDR blocks, comma-separated', (entry) => void addressOrBlock(entry, 'TRUSTED_PROXIES')),
    doc: "proxies whose `X-Forwarded-For` names the client's address (rate and sign-in limits key on it): the nearest address in the header not listed is the client's; empty: the header is ignored",
  }),
  variable({
    name: 'MAX_BATCH',
    field: 'maxBatch',
    group: 'limits',
    parser: integer(DEFAULT_MAX_BATCH, 1, 100),
    doc: 'most operations in one batched HTTP request (a JSON array body); `1` turns batching off (see [Batching](limits.md#batching))',
  }),
  variable({
    name: 'MAX_COST_IN_FLIGHT',
    field: 'maxCostInFlight',
    group: 'limits',
    parser: integer(DEFAULT_MAX_COST_IN_FLIGHT, 1, 100_000_000),
    doc: "most estimated REST calls (the `MAX_COST` estimate, at least 1 an operation) of the operations running at once on this replica; beyond it operations wait in their identity's queue, then get 503 `OVERLOADED` (see [Admission](limits.md#admission))",
  }),
  variable({
    name: 'MAX_COST_IN_FLIGHT_PER_IDENTITY',
    field: 'maxCostInFlightPerIdentity',
    group: 'limits',
    parser: integer(DEFAULT_MAX_COST_IN_FLIGHT_PER_IDENTITY, 1, 100_000_000),
    doc: "the same bound for one identity's operations; beyond it they wait in its queue, then get 429 `OVERLOADED`",
  }),
  variable({
    name: 'ADMISSION_QUEUE',
    field: 'admissionQueue',
    group: 'limits',
    parser: integer(DEFAULT_ADMISSION_QUEUE, 0, 10_000),
    doc: 'operations one identity may have waiting for admission (`0`: none wait, over a bound is refused at once); beyond it 429 `OVERLOADED`',
  }),
  variable({
    name: 'ADMISSION_WAIT_MS',
    field: 'admissionWaitMs',
    group: 'limits',
    parser: integer(DEFAULT_ADMISSION_WAIT_MS, 1, 600_000),
    doc: 'longest wait for admission; then 429 or 503 `OVERLOADED` with `Retry-After`',
  }),
  variable({
    name: 'PERSISTED_DOCUMENTS',
    field: 'persistedDocuments',
    group: 'persisted',
    parser: manifestFile,
    doc: 'a JSON file `{ "<documentId>": "<document>" }` (bare hex or `sha256:<hex>` IDs): an app\'s own trusted documents, served by `documentId` beside `src/generated/persisted-documents.json` (see [Trusted documents](persisted-documents.md#trusted-documents))',
  }),
  variable({
    name: 'PERSISTED_ONLY',
    field: 'persistedOnly',
    group: 'persisted',
    parser: flag(false),
    doc: 'run trusted documents only: text queries and APQ registrations get `PERSISTED_QUERY_ONLY`',
  }),
  variable({
    name: 'APQ_MAX_ENTRIES',
    field: 'apqMaxEntries',
    group: 'persisted',
    parser: integer(1_000, 1, 1_000_000),
    doc: 'without `REDIS_URL`: most APQ documents kept in memory (least recently used dropped first)',
  }),
  variable({
    name: 'APQ_TTL_SECONDS',
    field: 'apqTtlSeconds',
    group: 'persisted',
    parser: integer(24 * 3600, 1, 365 * 24 * 3600),
    doc: 'with `REDIS_URL`: how long Redis keeps an APQ document after its last registration',
  }),
  variable({
    name: 'MAX_SUBSCRIPTIONS_PER_SOCKET',
    field: 'maxSubscriptionsPerSocket',
    group: 'subscriptions',
    parser: integer(DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET, 1, 100_000),
    doc: 'most subscriptions open at once on one WebSocket; the next is refused with `SUBSCRIPTION_LIMIT`',
  }),
  variable({
    name: 'MAX_SUBSCRIPTIONS_PER_IDENTITY',
    field: 'maxSubscriptionsPerIdentity',
    group: 'subscriptions',
    parser: integer(DEFAULT_MAX_SUBSCRIPTIONS_PER_IDENTITY, 1, 1_000_000),
    doc: 'most subscriptions open at once per identity, WebSocket and SSE, across replicas with `REDIS_URL`; the next is refused with `SUBSCRIPTION_LIMIT`',
  }),
  variable({
    name: 'RESUME_WINDOW_MS',
    field: 'resumeWindowMs',
    group: 'subscriptions',
    parser: integer(120_000, 0, 86_400_000),
    doc: 'how long after a drop a subscription re-sent by the same client (`clientKey` in connectionParams) resumes where it was (see [Resuming](subscriptions.md#resuming)); `0` turns it off',
  }),
  variable({
    name: 'RESUME_MAX_ENTRIES',
    field: 'resumeMaxEntries',
    group: 'subscriptions',
    parser: integer(100_000, 1, 10_000_000),
    doc: "without `REDIS_URL`: most resume positions kept in memory over all identities; one identity keeps at most 1,000 (its oldest written goes first), and past this bound the identity that holds the most loses its oldest, so no caller pushes out another's; with `REDIS_URL`, Redis keeps each for the window",
  }),
  variable({
    name: 'IM_CALLBACK_SECRET',
    field: 'callbackSecret',
    group: 'callbacks',
    parser: text(undefined, 'no callback route'),
    doc: 'the shared secret of the service\'s message callback ("information subscription", see [Callbacks](subscriptions.md#callbacks)): every callback carries it in the `signature` header; set, the gateway serves the callback route',
  }),
  variable({
    name: 'IM_CALLBACK_PATH',
    field: 'callbackPath',
    group: 'callbacks',
    parser: text('/im/callback'),
    doc: "the path of the callback route (register `https://<gateway>/<path>` as the subscription's callback address)",
    check(earlier) {
      const path = earlier<string>('IM_CALLBACK_PATH');
      if (!/^\/[A-Za-z0-9\-._~/]*$/.test(path) || ['/graphql', '/health', '/ready', '/metrics'].includes(path)) {
        throw new ConfigError(
          `IM_CALLBACK_PATH must be a path such as /im/callback, not one the gateway serves already (got ${JSON.stringify(path)})`,
        );
      }
    },
  }),
  variable({
    name: 'IM_CALLBACK_MAX_BODY_BYTES',
    field: 'callbackMaxBodyBytes',
    group: 'callbacks',
    parser: integer(256 * 1024, 1024, 16 * 1024 * 1024),
    doc: 'largest callback body accepted (one message: its content, attachment, config and ext); a larger one is refused with 413',
  }),
  variable({
    name: 'IM_CALLBACK_RATE',
    field: 'callbackRate',
    group: 'callbacks',
    parser: integer(2_000, 1, 1_000_000),
    doc: 'callbacks per second accepted from one source address (a burst of as many at once); more are refused with 429, so that a flood stays bounded',
  }),
  variable({
    name: 'IM_CALLBACK_MAX_IN_FLIGHT',
    field: 'callbackMaxInFlight',
    group: 'callbacks',
    parser: integer(64, 1, 100_000),
    doc: 'callback requests being read at once on a replica; more are refused with 503',
  }),
  variable({
    name: 'IM_CALLBACK_DEDUP_SECONDS',
    field: 'callbackDedupSeconds',
    group: 'callbacks',
    parser: integer(600, 1, 7 * 24 * 3600),
    doc: 'how long a message ID is remembered to drop a repeated callback (in Redis with `REDIS_URL`, for the fleet; in bounded memory otherwise)',
  }),
  variable({
    name: 'EMULATOR_CALLBACK_URL',
    field: 'emulatorCallbackUrls',
    group: 'emulator',
    parser: list('http(s) URLs, comma-separated', (entry) => {
      urlIn({ EMULATOR_CALLBACK_URL: entry }, 'EMULATOR_CALLBACK_URL', ['http:', 'https:']);
    }),
    doc: "where the emulator POSTs each message as the service's callback does (document 6); `npm start` with the emulator in process points it at the gateway's own callback route",
  }),
  variable({
    name: 'EMULATOR_CALLBACK_SECRET',
    field: 'emulatorCallbackSecret',
    group: 'emulator',
    parser: text(undefined, '`IM_CALLBACK_SECRET`, or generated by `npm start`'),
    doc: "the `signature` header of the emulator's callbacks",
  }),
  variable({
    name: 'EMULATOR_CALLBACK_FAULTS',
    field: 'emulatorCallbackFaults',
    group: 'emulator',
    parser: {
      parse: (env, name) => parseCallbackFaults(env[name] ?? '', name),
      fallback: 'no faults',
      accepts: CALLBACK_FAULTS_SYNTAX,
    },
    doc: 'faults the emulator plays on its callbacks, by percentage, for testing receivers (see [the emulator](emulator.md#callbacks))',
  }),
  variable({
    name: 'LOG_LEVEL',
    field: 'logLevel',
    group: 'logs',
    parser: oneOf(LOG_LEVEL_NAMES, 'info'),
    doc: 'least level logged (see [Logs](operations.md#logs)); the emulator reads it too',
  }),
  variable({
    name: 'LOG_REQUESTS',
    field: 'logRequests',
    group: 'logs',
    parser: flag(false),
    doc: 'one `info` line per HTTP request (see [Logs](operations.md#logs))',
  }),
];

/** OpenTelemetry's standard variables, as far as the gateway honours them (docs/operations.md, Traces). */
export const TRACING_VARIABLES = [
  variable({
    name: 'OTEL_SDK_DISABLED',
    field: 'enabled',
    group: 'traces',
    parser: { ...flag(false), parse: (env, name) => !flagIn(env, name, false) },
    doc: 'true: no tracing at all, no `traceparent` forwarded',
  }),
  variable({
    name: 'OTEL_TRACES_EXPORTER',
    field: undefined,
    group: 'traces',
    parser: oneOf(['otlp', 'none'], 'otlp'),
    doc: '`none`: export nothing even with an endpoint set',
  }),
  variable({
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    field: undefined,
    group: 'traces',
    parser: url(['http:', 'https:']),
    doc: 'the traces URL itself (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
  }),
  variable({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    field: 'exportUrl',
    group: 'traces',
    parser: {
      ...url(['http:', 'https:']),
      parse(env, name, earlier) {
        const base = urlIn(env, name, ['http:', 'https:']);
        if (earlier('OTEL_TRACES_EXPORTER') === 'none') return undefined;
        return earlier<string | undefined>('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base ? `${base}/v1/traces` : undefined);
      },
    },
    doc: 'export traces by OTLP/HTTP to `<this>/v1/traces`; unset (and no `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): nothing exported, trace context still forwarded (see [Traces](operations.md#traces))',
  }),
  // grpc is not offered: OTLP/HTTP only. The traces' own variable, when set, is the only one read.
  variable({
    name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    field: undefined,
    group: 'traces',
    parser: {
      ...oneOf(PROTOCOLS, 'http/protobuf'),
      parse: (env, name) => (env[name]?.trim() ? oneOfIn(env, name, PROTOCOLS, 'http/protobuf') : undefined),
      fallback: 'unset',
    },
    doc: 'wins over `OTEL_EXPORTER_OTLP_PROTOCOL`',
  }),
  variable({
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    field: 'protocol',
    group: 'traces',
    parser: {
      ...oneOf(PROTOCOLS, 'http/protobuf'),
      parse: (env, name, earlier) =>
        earlier<Protocol | undefined>('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? oneOfIn(env, name, PROTOCOLS, 'http/protobuf'),
    },
    doc: 'how spans are posted (gRPC is not offered)',
  }),
  variable({
    name: 'OTEL_SERVICE_NAME',
    field: 'serviceName',
    group: 'traces',
    parser: text('im-graphql-gateway'),
    doc: '`service.name` of the spans',
  }),
  variable({
    name: 'OTEL_TRACES_SAMPLER',
    field: 'sampler',
    group: 'traces',
    parser: oneOf(SAMPLERS, 'parentbased_always_on'),
    doc: 'which traces are recorded',
  }),
  variable({
    name: 'OTEL_TRACES_SAMPLER_ARG',
    field: 'samplerRatio',
    group: 'traces',
    parser: ratio,
    doc: 'the ratio of the `traceidratio` samplers',
  }),
];
