// The request a call sends, made once before its attempts: path, identity headers, body, secrets.
import { describe, expect, it } from 'vitest';
import { prepare } from '../../src/rest/prepare';

const defaults = { prefix: '/im', appId: 'app-default' };

describe('prepare', () => {
  it("puts the prefix before the endpoint's path and the caller's identity in the headers", () => {
    const p = prepare(defaults, 'GET /message/unread', {}, { token: 'tok-1', userId: '7' }, 'json', 'trace');
    expect(p.path).toBe('/im/message/unread');
    expect(p.headers).toEqual({ app_id: 'app-default', 'access-token': 'tok-1', user_id: '7' });
    expect(p.body).toBeUndefined();
    expect(p.trace).toBe('trace');
    expect(p.secrets).toContain('tok-1');
  });

  it("uses the caller's app rather than the default, and marks a JSON body", () => {
    const p = prepare(defaults, 'PUT /message/recall', { conversation_id: 2, msg_id: 3 }, { appId: 'mine' }, 'json', undefined);
    expect(p.headers.app_id).toBe('mine');
    expect(p.headers['content-type']).toBe('application/json');
    expect(JSON.parse(p.body!)).toEqual({ conversation_id: 2, msg_id: 3 });
  });

  it('refuses a download through call() and a JSON endpoint through download()', () => {
    expect(() => prepare(defaults, 'GET /file/download/avatar', { object_name: 'a' }, {}, 'json', undefined)).toThrow(/use download\(\)/);
    expect(() => prepare(defaults, 'GET /message/unread', {}, {}, 'binary', undefined)).toThrow(/use call\(\)/);
  });

  it('refuses a header value with a line break without repeating the value', () => {
    const call = () => prepare(defaults, 'GET /message/unread', {}, { token: 'sec\r\nret' }, 'json', undefined);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(/access-token/);
    expect(call).not.toThrow(/sec/);
  });
});
