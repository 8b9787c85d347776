// A failed poll reaches subscribers on every replica as the plain failure it was (through Redis as
// JSON): the schema words it like any other failure, so a subscriber sees what a query would.
import { describe, expect, it } from 'vitest';
import { GatewayError, UpstreamError } from '../../src/rest/errors';
import { decodeEvent, encode, fromWireError, GAP, toWireError } from '../../src/subscriptions/events';

/** What another replica receives: the event through int64-exact JSON. */
function acrossReplicas(err: unknown): Error {
  const event = decodeEvent(encode({ type: 'error', error: toWireError(err) }));
  if (event.type === 'value') throw new Error('not an error event');
  return fromWireError(event.error);
}

describe('failures on the wire', () => {
  it('rebuild an upstream failure with its endpoint, kind, codes and message', () => {
    const sent = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'unavailable', detail: 'upstream unreachable (ECONNREFUSED)' });
    const received = acrossReplicas(sent);
    expect(received).toBeInstanceOf(UpstreamError);
    expect(received).toMatchObject({ message: sent.message, endpoint: 'GET /message/unread', kind: 'unavailable' });
    const refused = acrossReplicas(
      new UpstreamError({
        endpoint: 'GET /message/unread',
        kind: 'envelope',
        httpStatus: 200,
        code: 402,
        upstreamMessage: 'token expired',
      }),
    );
    expect(refused).toMatchObject({
      code: 402,
      httpStatus: 200,
      upstreamMessage: 'token expired',
      message: 'GET /message/unread failed: upstream code 402: token expired',
    });
  });

  it("rebuild the gateway's own failures with their code", () => {
    expect(fromWireError(GAP)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(acrossReplicas(new GatewayError('too far', 'BAD_USER_INPUT', 'after'))).toMatchObject({
      message: 'too far',
      code: 'BAD_USER_INPUT',
      field: 'after',
    });
  });

  it('mask anything else, as a query would', () => {
    const received = acrossReplicas(new TypeError('a bug with a secret in it'));
    expect(received).toBeInstanceOf(GatewayError);
    expect(received).toMatchObject({ message: 'Unexpected error.', code: 'INTERNAL_SERVER_ERROR' });
  });

  it('mask an error in the shape an older replica sends (a rolling deploy) instead of failing on it', () => {
    const older = JSON.parse('{"message":"GET /message/unread failed","extensions":{"code":"NOT_FOUND"}}') as Parameters<
      typeof fromWireError
    >[0];
    expect(fromWireError(older)).toMatchObject({ message: 'Unexpected error.', code: 'INTERNAL_SERVER_ERROR' });
  });
});
