// The client's one attempt hook: `start` before each attempt is sent (it may send more headers,
// never changing the call's own), `end` after it with what `start` answered, how it went and the
// failure; `onCall` reads the ends after the observer; an observer that throws fails no call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttemptStart, type CallInfo, type CallObserver, createRestClient } from '../../src/rest/client';
import { UpstreamError } from '../../src/rest/errors';
import { envelope, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer(() => envelope(true));
});
afterAll(() => server.close());

const caller = { appId: 'app1', token: 'tok-1' };

describe('the REST client attempt observer', () => {
  it('sees every attempt start and end, with its own state, and sends the headers it adds on that attempt only', async () => {
    server.setScript((_req, _res, index) => (index === 0 ? { status: 503, body: 'busy' } : envelope({ online: true })));
    const seen: string[] = [];
    const ends: { state: unknown; info: CallInfo; error: unknown }[] = [];
    const observer: CallObserver<string> = {
      start(attempt: AttemptStart) {
        seen.push(`${attempt.endpoint} #${attempt.attempt} trace=${String(attempt.trace)}`);
        attempt.headers = { ...attempt.headers, 'x-attempt': String(attempt.attempt) };
        return `state ${attempt.attempt}`;
      },
      end(state, info, error) {
        ends.push({ state, info, error });
      },
    };
    const onCall: CallInfo[] = [];
    const rest = createRestClient({ baseUrl: server.url, retries: 1, retryBaseDelayMs: 1, observer, onCall: (info) => onCall.push(info) });
    const before = server.requests.length;
    try {
      const reply = await rest.call('GET /user/online_status', {}, caller, { trace: { current: 'ctx-1' } });
      expect(reply.data.online).toBe(true);
    } finally {
      await rest.close();
    }
    expect(seen).toEqual(['GET /user/online_status #1 trace=ctx-1', 'GET /user/online_status #2 trace=ctx-1']);
    expect(server.requests.slice(before).map((r) => [r.headers['x-attempt'], r.headers['access-token']])).toEqual([
      ['1', 'tok-1'],
      ['2', 'tok-1'],
    ]);
    expect(ends.map((e) => [e.state, e.info.attempt, e.info.status])).toEqual([
      ['state 1', 1, 503],
      ['state 2', 2, 200],
    ]);
    expect(ends[0]!.error).toBeInstanceOf(UpstreamError);
    expect(ends[1]!.error).toBeUndefined();
    expect(onCall).toEqual(ends.map((e) => e.info));
  });

  it('fails no call when the observer throws', async () => {
    server.setScript(() => envelope({ online: true }));
    const rest = createRestClient({
      baseUrl: server.url,
      observer: {
        start: () => {
          throw new Error('start broke');
        },
        end: () => {
          throw new Error('end broke');
        },
      },
    });
    try {
      await expect(rest.call('GET /user/online_status', {}, caller)).resolves.toMatchObject({ data: { online: true } });
    } finally {
      await rest.close();
    }
  });
});
