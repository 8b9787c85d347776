// A GraphQL POST over real HTTP with a user's own token, answering the HTTP status with the body:
// the refusals of the demand limits are told by their status as much as by their code.
import type { TestUser } from '../helpers/emulator';
import type { Stack } from '../helpers/stack';

export interface StatusReply {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[] };
}

export async function postAs(stack: Stack, as: TestUser, query: string, variables?: Record<string, unknown>): Promise<StatusReply> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      'access-token': as.token,
      app_id: stack.emu.appId,
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as StatusReply['body'] };
}
