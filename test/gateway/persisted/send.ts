// Persisted-query requests over real HTTP, as Apollo clients and trusted-document clients send
// them: a body of our own (documentId, extensions) by POST, or the same parameters in a GET URL.
import { createHash } from 'node:crypto';

export interface Answer {
  status: number;
  headers: Headers;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] } | undefined;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** APQ's extension for a hash. */
export const persistedQuery = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
}

export async function post(origin: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  return answer(await fetch(`${origin}/graphql`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) }));
}

/** The parameters in the URL (objects as JSON), with content-type set as Apollo Client sets it (it passes the CSRF check). */
export async function get(origin: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) search.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  return answer(await fetch(`${origin}/graphql?${search}`, { headers: { ...JSON_HEADERS, ...headers } }));
}

export const codes = (a: Answer) => (a.body?.errors ?? []).map((e) => e.extensions?.code);
