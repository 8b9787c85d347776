// The token hooks: accepted only for an endpoint that checks the token, refused only for a token
// refusal, and neither able to change the call's answer or failure.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/rest/errors';
import { prepare } from '../../src/rest/prepare';
import { tokenAccepted, tokenRefused } from '../../src/rest/token-hooks';

const checked = prepare({ prefix: '' }, 'GET /message/unread', {}, { token: 't' }, 'json', undefined);
const open = prepare({ prefix: '' }, 'POST /token/login', { login_name: 'a', password: 'b' }, { token: 't' }, 'json', undefined);
const refusal = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'envelope', code: 10003 });

describe('token hooks', () => {
  it('tell that a token was accepted by an endpoint that checks it, and answer as the call did', () => {
    const accepted: string[] = [];
    const hooks = { onTokenAccepted: (c: { token?: string }) => accepted.push(c.token!) };
    expect(tokenAccepted(hooks, checked, { token: 't' }, 'reply')).toBe('reply');
    tokenAccepted(hooks, open, { token: 't' }, 'reply');
    tokenAccepted(hooks, checked, {}, 'reply');
    expect(accepted).toEqual(['t']);
  });

  it('tell of a refused token only for a refusal, and fail as the call did', () => {
    const refused: string[] = [];
    const hooks = { onTokenRefused: (c: { token?: string }) => refused.push(c.token!) };
    expect(() => tokenRefused(hooks, refusal, { token: 't' })).toThrow(refusal);
    const other = new UpstreamError({ endpoint: 'GET /message/unread', kind: 'timeout' });
    expect(() => tokenRefused(hooks, other, { token: 'u' })).toThrow(other);
    expect(refused).toEqual(['t']);
  });

  it("never let a failing hook change the call's answer or failure", () => {
    const hooks = {
      onTokenAccepted: () => {
        throw new Error('hook bug');
      },
      onTokenRefused: () => {
        throw new Error('hook bug');
      },
    };
    expect(tokenAccepted(hooks, checked, { token: 't' }, 'reply')).toBe('reply');
    expect(() => tokenRefused(hooks, refusal, { token: 't' })).toThrow(refusal);
  });
});
