// Starts an emulator on a free port and speaks raw REST to it, for tests of the service itself.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createEmulator, type CreateEmulatorOptions, type Emulator } from '../../src/emulator';
import type { RecordedCall } from '../../src/emulator/server';
import type { EndpointName } from '../../src/rest/endpoints';
import { parseJson, stringifyJson } from '../../src/rest/json';
import { lateBound } from './late-bound';

/** A registered, logged-in user of the emulator. */
export interface TestUser {
  id: number;
  token: string;
  name: string;
  password: string;
}

interface Envelope<T = unknown> {
  code: number;
  data: T;
  message: string | null;
  cursor?: string;
  total?: number | bigint;
  version?: number | bigint;
  msg_ids?: (number | bigint)[];
}

export interface RestRequest {
  query?: Record<string, string | number | bigint | boolean>;
  /** A JSON value (objects, arrays, or a bare string); bigints keep their digits. */
  body?: unknown;
  /** A raw body text, sent as is (for malformed-body tests). */
  rawBody?: string;
  token?: string;
  userId?: number | bigint | string;
  groupId?: number | bigint | string;
  appId?: string | null;
  headers?: Record<string, string>;
}

export interface TestEmulator {
  server: Emulator;
  url: string;
  adminToken: string;
  appId: string;
  /** Raw REST call; answers the parsed envelope and the HTTP status. */
  rest<T = unknown>(method: string, path: string, req?: RestRequest): Promise<Envelope<T> & { httpStatus: number; text: string }>;
  /** Like rest, but fails the test unless the envelope code is 200; answers data. */
  ok<T = unknown>(method: string, path: string, req?: RestRequest): Promise<T>;
  /** Registers a user and logs in; answers its ID and token. */
  user(name?: string, password?: string): Promise<TestUser>;
  /** Sets the mark `calls` counts from: forgets the REST calls recorded so far. */
  mark(): void;
  /** The REST calls the emulator received since the mark (of one endpoint, if named), oldest first. */
  calls(endpoint?: EndpointName): RecordedCall[];
  stop(): Promise<void>;
}

let userCounter = 0;

export async function startEmulator(options: Partial<CreateEmulatorOptions> = {}): Promise<TestEmulator> {
  const adminToken = options.adminToken ?? `admin-${randomBytes(8).toString('hex')}`;
  const server = createEmulator({ recordCalls: 10_000, ...options, adminToken });
  const url = await server.start();
  const appId = server.state.options.appId;

  async function rest<T>(method: string, path: string, req: RestRequest = {}) {
    const target = new URL(path, url);
    for (const [k, v] of Object.entries(req.query ?? {})) target.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...req.headers };
    if (req.appId !== null) headers.app_id = req.appId ?? appId;
    if (req.token !== undefined) headers['access-token'] = req.token;
    if (req.userId !== undefined) headers.user_id = String(req.userId);
    if (req.groupId !== undefined) headers.group_id = String(req.groupId);
    let body: string | undefined = req.rawBody;
    if (req.body !== undefined) {
      body = stringifyJson(req.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(target, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    const envelope = parseJson(text) as Envelope<T>;
    return { ...envelope, httpStatus: res.status, text };
  }

  async function ok<T>(method: string, path: string, req: RestRequest = {}): Promise<T> {
    const reply = await rest<T>(method, path, req);
    if (reply.code !== 200) throw new Error(`${method} ${path} answered ${reply.code}: ${reply.message}`);
    return reply.data;
  }

  async function user(name = `user${++userCounter}_${randomBytes(3).toString('hex')}`, password = 'secret-1') {
    await ok('POST', '/user/register/v2', { body: { username: name, password } });
    const grant = await ok<{ token: string; user_id: number }>('POST', '/token/user', { body: { name, password } });
    return { id: grant.user_id, token: grant.token, name, password };
  }

  return {
    server,
    url,
    adminToken,
    appId,
    rest,
    ok,
    user,
    mark: () => server.resetCalls(),
    calls: (endpoint) => (endpoint === undefined ? [...server.calls] : server.calls.filter((c) => c.endpoint === endpoint)),
    stop: () => server.stop(),
  };
}

/** One emulator for the test file: started before its tests, stopped after; usable from beforeAll on. */
export function useEmulator(options: Partial<CreateEmulatorOptions> = {}): TestEmulator {
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    emu = await startEmulator(options);
  });
  afterAll(() => emu?.stop());
  return lateBound(() => emu, 'the emulator');
}
