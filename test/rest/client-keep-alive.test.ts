// The DELETE-only endpoints keep the connection. undici closes a socket once it has written a body
// with a method that "does not expect a payload" (DELETE), unless the request says `reset: false`
// (undici/lib/dispatcher/client-h1.js, writeH1 and the write* helpers): 1.30 sends its tags as a
// DELETE body, as its spec says, so without that every 1.30 call would cost a new connection.
// Connections are counted at a raw node:http server, by its 'connection' events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { envelope, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

const ROUNDS = 5;

let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;

beforeAll(async () => {
  server = await startScriptedServer(() => envelope(true));
  rest = createRestClient({ baseUrl: server.url, appId: 'app' });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

describe('REST client connections across DELETE calls', () => {
  it(`reuses the connections of 5.3, 1.30 (with a body) and 1.31 over ${ROUNDS} rounds, opening none after the first`, async () => {
    const caller = { token: 't' };
    let afterFirstRound = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await rest.call('DELETE /message/conversation', { conversation_id: 2000000000001 }, caller);
      await rest.call('DELETE /user/push/tag', { tags: ['a', 'b'] }, caller);
      await rest.call('DELETE /user/push/tag/all', {}, caller);
      if (round === 0) afterFirstRound = server.totalConnections();
    }
    const sent = server.requests.map((r) => `${r.method} ${r.path}${r.rawBody === '' ? '' : ' with a body'}`);
    expect(sent).toEqual(
      Array.from({ length: ROUNDS }, () => [
        'DELETE /message/conversation',
        'DELETE /user/push/tag with a body',
        'DELETE /user/push/tag/all',
      ]).flat(),
    );
    // undici's pool may spread calls made one after another over a second socket (a socket is
    // reused one event-loop turn after its answer), so the count is not 1; but it must not grow.
    expect(server.totalConnections()).toBe(afterFirstRound);
    // And none was closed.
    expect(server.openConnections()).toBe(server.totalConnections());
  });
});
