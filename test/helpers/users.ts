// Shared by the user schema tests: identities, devices and a compact view of the REST calls.
import { expect } from 'vitest';
import type { EndpointName } from '../../src/rest/endpoints';
import type { TestEmulator, TestUser } from './emulator';
import type { GqlReply, Stack } from './stack';

/** A user ID no user has (real IDs are around 2e12). */
export const MISSING_USER = '1';

export type { TestUser };

/** Headers of a user token. */
export const tokenOf = (u: { token: string }) => ({ 'access-token': u.token });

/** The identity headers (and connectionParams) of a user token: the app and the token. */
export const identity = (emu: TestEmulator, u: { token: string }) => ({ app_id: emu.appId, ...tokenOf(u) });

/** Logs the user in on a device (registered on first sight); answers that device's token. */
export async function loginOnDevice(stack: Stack, u: TestUser, guid: string, userAgent = 'Mozilla/5.0 (Linux; Android 14)') {
  const grant = await stack.emu.ok<{ token: string }>('POST', '/token/user', {
    body: { name: u.name, password: u.password, device_guid: guid },
    headers: { 'user-agent': userAgent },
  });
  return grant.token;
}

export interface SeenCall {
  endpoint: EndpointName;
  query?: Record<string, string>;
  body?: unknown;
  user_id?: string;
}

/** The REST calls the emulator received since the last reset, with only the parts that were sent. */
export function seenCalls(stack: Stack): SeenCall[] {
  return stack.emu.server.calls.map((c) => ({
    endpoint: c.endpoint,
    ...(Object.keys(c.query).length > 0 ? { query: c.query } : {}),
    ...(c.body === undefined ? {} : { body: c.body }),
    ...(c.headers.user_id === undefined ? {} : { user_id: c.headers.user_id }),
  }));
}

/** The endpoints called since the last reset, sorted (for reads, whose order is not fixed). */
export const seenEndpoints = (stack: Stack) => stack.emu.server.calls.map((c) => c.endpoint).sort();

/** Asserts the reply failed on exactly one field, with these extensions, and holds no other error. */
export function expectFieldError(reply: GqlReply, path: (string | number)[], extensions: Record<string, unknown>) {
  expect(reply.errors?.map((e) => e.path)).toEqual([path]);
  expect(reply.errors?.[0]?.extensions).toMatchObject(extensions);
}

/** A fresh user name. */
let names = 0;
export const freshName = (prefix = 'reg') => `${prefix}${++names}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
