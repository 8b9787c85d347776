// One attempt and the attempts of a call, the same for JSON calls and downloads: the exchange's
// answer handed back and observed, every failure turned into one UpstreamError (or the caller's
// abort reason), and the retry loop run only after a failure the policy retries.
import { describe, expect, it } from 'vitest';
import { attempt, attempts, type AttemptSettings, type Exchange } from '../../src/rest/attempt';
import { BodyTooLarge } from '../../src/rest/body';
import { UpstreamError } from '../../src/rest/errors';
import type { CallInfo } from '../../src/rest/observer';
import { prepare } from '../../src/rest/prepare';

const get = prepare({ prefix: '' }, 'GET /message/unread', {}, {}, 'json', undefined);
const put = prepare({ prefix: '' }, 'PUT /message/recall', { conversation_id: 1, msg_id: 2 }, {}, 'json', undefined);

function settings(infos: CallInfo[] = []): AttemptSettings {
  return {
    observer: { end: (_state, info) => infos.push(info) },
    retry: { retries: 2, baseDelayMs: 1 },
    callTimeoutMs: 500,
    connectTimeoutMs: 200,
  };
}

/** An exchange that answers `status` and then what `run` answers or throws for each attempt in turn. */
function scripted<T>(...runs: (() => T)[]): Exchange<T> & { sent: number } {
  const exchange = Object.assign(
    async (_p: unknown, _h: unknown, _s: unknown, answer: { status?: number }) => {
      const run = runs[exchange.sent++]!;
      answer.status = 200;
      return run();
    },
    { sent: 0 },
  );
  return exchange;
}

const fail = (err: unknown) => (): never => {
  throw err;
};

/** What `attempt` makes of an exchange that throws `err`. */
async function failureFor(err: unknown, timedOut = false, signal?: AbortSignal): Promise<unknown> {
  const exchange: Exchange<never> = async (_p, _h, _s, answer) => {
    if (timedOut) answer.timedOut = true;
    throw err;
  };
  return attempt(settings(), get, 1, signal, exchange).catch((e: unknown) => e);
}

describe('an attempt', () => {
  it("hands back the exchange's answer and tells the observer its status and number", async () => {
    const infos: CallInfo[] = [];
    await expect(
      attempt(
        settings(infos),
        get,
        3,
        undefined,
        scripted(() => 'ok'),
      ),
    ).resolves.toBe('ok');
    expect(infos).toMatchObject([{ endpoint: 'GET /message/unread', status: 200, attempt: 3 }]);
    expect(infos[0]).not.toHaveProperty('error');
  });

  it('sends the call’s headers when nothing observes', async () => {
    let sent: unknown;
    const none = { ...settings(), observer: undefined };
    await attempt(none, get, 1, undefined, async (_p, headers) => (sent = headers));
    expect(sent).toBe(get.headers);
  });

  it('turns an unreachable upstream into "unavailable", naming a connect timeout with its limit', async () => {
    const refused = (await failureFor(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))) as UpstreamError;
    expect(refused).toMatchObject({ kind: 'unavailable', endpoint: 'GET /message/unread' });
    expect(refused.message).toMatch(/ECONNREFUSED/);
    const slow = (await failureFor(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }))) as UpstreamError;
    expect(slow.message).toMatch(/connect timed out after 200 ms/);
  });

  it('turns its own time limit and undici’s into "timeout", and a body past the limit into "invalid-body"', async () => {
    expect(await failureFor(new Error('aborted'), true)).toMatchObject({ kind: 'timeout' });
    expect(await failureFor(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toMatchObject({ kind: 'timeout' });
    expect(await failureFor(new BodyTooLarge(10))).toMatchObject({ kind: 'invalid-body' });
  });

  it("answers with the caller's abort reason, and lets a bug of ours surface as it is", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gone');
    controller.abort(reason);
    expect(await failureFor(new Error('aborted'), false, controller.signal)).toBe(reason);
    const bug = Object.assign(new Error('bad header'), { code: 'UND_ERR_INVALID_ARG' });
    expect(await failureFor(bug)).toBe(bug);
  });

  it('tells the observer of the failure it amounted to', async () => {
    const infos: CallInfo[] = [];
    const envelope = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'envelope', code: 10008 });
    await attempt(settings(infos), get, 1, undefined, scripted(fail(envelope))).catch(() => undefined);
    expect(infos).toMatchObject([{ error: 'envelope', code: 10008, status: 200 }]);
  });
});

describe('the attempts of a call', () => {
  const unreachable = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'unavailable' });
  const rethrow = (err: unknown): never => {
    throw err;
  };

  it('retries a GET after a transient failure and hands the answer to `ok`', async () => {
    const infos: CallInfo[] = [];
    const exchange = scripted(fail(unreachable), () => 'second');
    await expect(attempts(settings(infos), get, undefined, exchange, (v) => `ok:${v}`, rethrow)).resolves.toBe('ok:second');
    expect(infos.map((i) => i.attempt)).toEqual([1, 2]);
  });

  it('hands the last failure to `fail` once the policy stops: three attempts of a GET, one of a write', async () => {
    const seen: unknown[] = [];
    const failing = (err: unknown): never => {
      seen.push(err);
      throw err;
    };
    const gets = scripted(fail(unreachable), fail(unreachable), fail(unreachable));
    await expect(attempts(settings(), get, undefined, gets, (v) => v, failing)).rejects.toBe(unreachable);
    expect(gets.sent).toBe(3);
    const puts = scripted(fail(unreachable));
    await expect(attempts(settings(), put, undefined, puts, (v) => v, failing)).rejects.toBe(unreachable);
    expect(puts.sent).toBe(1);
    expect(seen).toEqual([unreachable, unreachable]);
  });
});
