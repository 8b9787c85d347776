// The emulator's HTTP server. It routes and validates with the same endpoint table the client
// uses, resolves the caller, runs the handler and answers the envelope {code, data, message}.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { type EndpointName, endpoints } from '../rest/endpoints';
import { parseJson, stringifyJson } from '../rest/json';
import type { ArrayBody, EndpointDef } from '../rest/table';
import { type Actor, resolveActor } from './auth/actor';
import { Code, ImError, invalidParam } from './errors';
import { log } from '../log/logger';
import { BinaryReply, type Ctx, type EnvelopeExtras, type HandlerMap, type RawRoute } from './handler';
import type { EmulatorOptions } from './options';
import { State } from './state';

export interface RecordedCall {
  endpoint: EndpointName;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: { app_id?: string; user_id?: string; group_id?: string; traceparent?: string; tracestate?: string; hasToken: boolean };
}

interface EmulatorServerOptions {
  options: EmulatorOptions;
  handlers: HandlerMap;
  rawRoutes?: readonly RawRoute[];
  host?: string;
  port?: number;
  clock?: () => number;
  /** Keep the last N table calls (tests count the REST calls a query caused). 0 = off. */
  recordCalls?: number;
}

export interface EmulatorServer {
  readonly state: State;
  /** Recorded table calls, oldest first. */
  readonly calls: RecordedCall[];
  resetCalls(): void;
  /** Connections accepted since start (a client's pool and its reuse of them show here). */
  connectionsOpened(): number;
  start(): Promise<string>;
  stop(): Promise<void>;
  readonly url: string;
}

const MAX_JSON_BODY = 2 * 1024 * 1024;

interface Route {
  name: EndpointName;
  def: EndpointDef;
}

// (method path) → endpoint, every listed method included; and the known paths for 405s.
const routes = new Map<string, Route>();
const knownPaths = new Set<string>();
for (const [name, def] of Object.entries(endpoints) as [EndpointName, EndpointDef][]) {
  for (const method of def.methods) routes.set(`${method} ${def.path}`, { name, def });
  knownPaths.add(def.path);
}

export function createEmulatorServer(config: EmulatorServerOptions): EmulatorServer {
  const state = new State(config.options, config.clock);
  const calls: RecordedCall[] = [];
  const keep = config.recordCalls ?? 0;
  let baseUrl = '';
  let server: Server | undefined;
  let connections = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    const raw = config.rawRoutes?.find((r) => r.method === method && url.pathname.startsWith(r.prefix));
    if (raw) return raw.handle(req, res, state, baseUrl);

    const route = routes.get(`${method} ${url.pathname}`);
    if (!route) {
      req.resume();
      if (knownPaths.has(url.pathname)) {
        return sendEnvelope(res, 405, { code: 405, data: null, message: `method ${method} not allowed on ${url.pathname}` });
      }
      return sendEnvelope(res, 404, { code: 404, data: null, message: `no endpoint ${method} ${url.pathname}` });
    }
    const { name, def } = route;
    const binary = def.result === 'binary';
    // Downloads go into image tags, so the SDK passes identity as query parameters there.
    const header = (key: string) => headerValue(req, key) ?? (binary ? (url.searchParams.get(key) ?? undefined) : undefined);

    const appId = header('app_id');
    if (appId === undefined || appId === '') throw new ImError(Code.INVALID_PARAMETER, 'invalid header app_id: required');
    if (appId !== state.options.appId) throw new ImError(Code.APP_NOT_FOUND, `app_id ${appId} does not exist`);
    const actor: Actor = resolveActor(
      state,
      { token: header('access-token'), userId: header('user_id'), groupId: def.groupIdHeader ? header('group_id') : undefined },
      def.auth,
    );

    const query = Object.fromEntries(url.searchParams);
    const rawBody = def.body || def.queryAlsoInBody ? await readJsonBody(req) : (req.resume(), undefined);
    const params = def.queryAlsoInBody
      ? validateQuery(def, { ...queryFieldsOf(def, rawBody), ...query })
      : { ...validateQuery(def, query), ...validateBody(def, rawBody) };

    if (keep > 0) {
      if (calls.length >= keep) calls.shift();
      calls.push({
        endpoint: name,
        method,
        path: url.pathname,
        query,
        body: rawBody,
        headers: {
          ...optional('app_id', appId),
          ...optional('user_id', headerValue(req, 'user_id')),
          ...optional('group_id', headerValue(req, 'group_id')),
          ...optional('traceparent', headerValue(req, 'traceparent')),
          ...optional('tracestate', headerValue(req, 'tracestate')),
          hasToken: header('access-token') !== undefined,
        },
      });
    }

    let extras: EnvelopeExtras = {};
    const ctx: Ctx = {
      state,
      actor,
      now: state.clock(),
      baseUrl,
      userAgent: headerValue(req, 'user-agent') ?? '',
      setExtras: (more) => {
        extras = { ...extras, ...more };
      },
    };
    const handler = config.handlers[name] as ((p: unknown, c: Ctx) => unknown) | undefined;
    if (!handler) return sendEnvelope(res, 501, { code: 501, data: null, message: `${name} is not implemented by the emulator` });
    const result = await handler(params, ctx);
    if (result instanceof BinaryReply) return sendBinary(res, result);
    return sendEnvelope(res, 200, { code: Code.OK, data: result, message: null, ...extras });
  }

  const emulator: EmulatorServer = {
    state,
    calls,
    resetCalls: () => {
      calls.length = 0;
    },
    connectionsOpened: () => connections,
    get url() {
      return baseUrl;
    },
    start: async () => {
      server = createServer((req, res) => {
        handle(req, res).catch((err: unknown) => answerError(res, err));
      });
      server.keepAliveTimeout = 30_000;
      server.on('connection', () => connections++);
      const host = config.host ?? '127.0.0.1';
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port ?? 0, host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      baseUrl = `http://${host}:${port}`;
      return baseUrl;
    },
    stop: async () => {
      if (!server) return;
      const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeAllConnections();
      await closing;
      server = undefined;
    },
  };
  return emulator;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function headerValue(req: IncomingMessage, key: string): string | undefined {
  const value = req.headers[key];
  return Array.isArray(value) ? value[0] : value;
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BODY) throw new ImError(Code.INVALID_PARAMETER, 'request body too large', 413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    throw new ImError(Code.INVALID_PARAMETER, 'invalid request body: not JSON');
  }
}

/** The query parameters a JSON object body carries (the web SDK's form); the URL's own win. */
function queryFieldsOf(def: EndpointDef, body: unknown): Record<string, unknown> {
  if (!def.query || typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const shape = def.query.shape;
  return Object.fromEntries(Object.entries(body).filter(([key]) => Object.hasOwn(shape, key)));
}

// An array body checked as the one field of an object named like the body, so that a refusal
// names its item (applications[0].user_id); made once per endpoint.
const arrayWrappers = new WeakMap<ArrayBody, z.ZodObject>();
function arrayWrapper(body: ArrayBody): z.ZodObject {
  let wrapper = arrayWrappers.get(body);
  if (!wrapper) arrayWrappers.set(body, (wrapper = z.object({ [body.name]: body.schema })));
  return wrapper;
}

function validateQuery(def: EndpointDef, query: Record<string, unknown>): Record<string, unknown> {
  if (!def.query) return {};
  return check(def.query, query, '');
}

function validateBody(def: EndpointDef, body: unknown): Record<string, unknown> {
  if (!def.body) return {};
  if ('kind' in def.body && def.body.kind === 'array') {
    if (!Array.isArray(body)) throw invalidParam(def.body.name, 'is required (the body is a JSON array)');
    return { [def.body.name]: check(arrayWrapper(def.body), { [def.body.name]: body }, '')[def.body.name] };
  }
  if ('kind' in def.body) {
    if (body === undefined) throw invalidParam(def.body.name, 'is required (a JSON string body)');
    const parsed = def.body.schema.safeParse(body);
    if (!parsed.success) throw invalidParam(def.body.name, 'expected a JSON string body');
    return { [def.body.name]: parsed.data };
  }
  const value = body ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImError(Code.INVALID_PARAMETER, 'invalid request body: expected a JSON object');
  }
  return check(def.body, value, '');
}

function check(schema: z.ZodObject, input: object, prefix: string): Record<string, unknown> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
  const missing = valueAt(input, issue.path) === undefined;
  throw invalidParam(prefix + (path || 'body'), missing ? 'is required' : issue.message);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = input;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function sendEnvelope(res: ServerResponse, status: number, envelope: Record<string, unknown>): void {
  const text = stringifyJson(envelope);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendBinary(res: ServerResponse, reply: BinaryReply): void {
  const headers: Record<string, string | number> = { 'content-type': reply.contentType, ...reply.headers };
  if (Buffer.isBuffer(reply.body)) {
    headers['content-length'] = reply.body.length;
    res.writeHead(reply.status, headers);
    res.end(reply.body);
    return;
  }
  res.writeHead(reply.status, headers);
  const stream: Readable = reply.body;
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function answerError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof ImError) {
    sendEnvelope(res, err.httpStatus, { code: err.code, data: null, message: err.message });
    return;
  }
  // An emulator bug: answer like a failing service would, and keep the details on stderr.
  log().error({ err }, 'emulator: unexpected error');
  sendEnvelope(res, 500, { code: 500, data: null, message: 'internal error' });
}
