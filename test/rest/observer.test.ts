// The attempt observer: what it is told as an attempt starts and ends, the order of an observer and
// an end-only hook, and that its own failures never reach the call.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/rest/errors';
import { attemptEnded, attemptStarted, type CallInfo, type CallObserver, observerOf } from '../../src/rest/observer';
import { prepare } from '../../src/rest/prepare';

const prepared = prepare({ prefix: '' }, 'GET /message/unread', {}, { token: 't' }, 'json', 'ctx');

describe('attempt observer', () => {
  it('is absent when nothing observes, so an attempt makes nothing for it', () => {
    expect(observerOf(undefined, undefined)).toBeUndefined();
    expect(attemptStarted(undefined, prepared, 1)).toBeUndefined();
  });

  it('sees the endpoint, attempt, trace and headers at the start, and hands its state to the end', () => {
    const ends: [unknown, CallInfo, unknown][] = [];
    const observer: CallObserver<string> = {
      start: (a) => `${a.endpoint}#${a.attempt}@${String(a.trace)}`,
      end: (state, info, error) => ends.push([state, info, error]),
    };
    const watched = attemptStarted(observer as CallObserver, prepared, 2)!;
    expect(watched.headers).toBe(prepared.headers);
    const failed = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'envelope', code: 10003 });
    attemptEnded(observer as CallObserver, watched, prepared, performance.now(), 200, failed);
    const [state, info, error] = ends[0]!;
    expect(state).toBe('GET /message/unread#2@ctx');
    expect(info).toMatchObject({ endpoint: 'GET /message/unread', method: 'GET', path: '/message/unread', status: 200, attempt: 2 });
    expect(info).toMatchObject({ error: 'envelope', code: 10003 });
    expect(error).toBe(failed);
  });

  it('leaves out the fields an attempt did not have', () => {
    const infos: CallInfo[] = [];
    const observer = observerOf(undefined, (info) => infos.push(info))!;
    attemptEnded(observer, attemptStarted(observer, prepared, 1), prepared, performance.now(), undefined, undefined);
    expect(Object.keys(infos[0]!).sort()).toEqual(['attempt', 'endpoint', 'method', 'ms', 'path']);
  });

  it("calls the observer's end, then the end-only hook, even when the observer throws", () => {
    const order: string[] = [];
    const observer = observerOf(
      {
        end: () => {
          order.push('observer');
          throw new Error('observer bug');
        },
      },
      () => order.push('onCall'),
    )!;
    expect(() => attemptEnded(observer, attemptStarted(observer, prepared, 1), prepared, performance.now(), 200, undefined)).not.toThrow();
    expect(order).toEqual(['observer', 'onCall']);
  });

  it("swallows a failing start: the attempt goes on with the call's headers", () => {
    const observer: CallObserver = {
      start: () => {
        throw new Error('start bug');
      },
      end: () => undefined,
    };
    expect(attemptStarted(observer, prepared, 1)?.headers).toBe(prepared.headers);
  });
});
