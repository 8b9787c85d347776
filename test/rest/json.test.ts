// int64-exact JSON (src/rest/json.ts) and the scalar schemas of the endpoint table (src/rest/table.ts).
import { describe, expect, it } from 'vitest';
import { idText, parseJson, stringifyJson } from '../../src/rest/json';
import { bool, double, int32In, int64 } from '../../src/rest/table';

// A real message ID of the service, far above 2^53: JSON.parse would turn it into ...091400.
const MSG_ID = '1552747048460091409';

describe('parseJson and stringifyJson keep int64 exact', () => {
  it('keeps the message ID digit for digit through parse and stringify', () => {
    const text = `{"msg_id":${MSG_ID}}`;
    const parsed = parseJson(text);
    expect(parsed).toEqual({ msg_id: BigInt(MSG_ID) });
    expect(stringifyJson(parsed)).toBe(text);
    // The reason for all this: the native parser loses the last digits.
    expect(String((JSON.parse(text) as { msg_id: number }).msg_id)).not.toBe(MSG_ID);
  });

  it('keeps it exact inside arrays, nested objects and as a negative number', () => {
    const text =
      `{"code":200,"data":{"is_last":false,"messages":[{"msg_id":${MSG_ID},"from_xid":{"device_sn":1,"uid":2000000000001}}],` +
      `"next_msg_id":-${MSG_ID}},"msg_ids":[${MSG_ID},1,-${MSG_ID}]}`;
    const parsed = parseJson(text) as {
      data: { messages: Array<{ msg_id: unknown; from_xid: { uid: unknown } }>; next_msg_id: unknown };
      msg_ids: unknown[];
    };
    expect(parsed.data.messages[0]?.msg_id).toBe(BigInt(MSG_ID));
    expect(parsed.data.next_msg_id).toBe(-BigInt(MSG_ID));
    expect(parsed.msg_ids).toEqual([BigInt(MSG_ID), 1, -BigInt(MSG_ID)]);
    expect(stringifyJson(parsed)).toBe(text);
  });

  it('keeps a long integer exact wherever its digit run starts: the whole text, after a bracket, after 13-digit IDs', () => {
    expect(parseJson(MSG_ID)).toBe(BigInt(MSG_ID));
    expect(parseJson(`[${MSG_ID}]`)).toEqual([BigInt(MSG_ID)]);
    const ids = Array.from({ length: 20 }, (_, i) => 2000000000100 + i);
    expect(parseJson(`{"ids":[${ids.join(',')}],"last":${MSG_ID}}`)).toEqual({ ids, last: BigInt(MSG_ID) });
  });

  it('idText writes an int64 as String does, also past its memory of recent IDs', () => {
    for (const id of [0, 7, 2 ** 31, 2 ** 53 - 1, 2000000000001, BigInt(MSG_ID)]) expect(idText(id)).toBe(String(id));
    const many = Array.from({ length: 25_000 }, (_, i) => 2000000000000 + i);
    expect(many.map(idText)).toEqual(many.map(String));
    expect(many.map(idText)).toEqual(many.map(String));
  });

  it('writes bigints given by our own code as plain JSON numbers', () => {
    expect(stringifyJson({ targets: [BigInt(MSG_ID), 2000000000001] })).toBe(`{"targets":[${MSG_ID},2000000000001]}`);
  });

  it('leaves numbers inside strings untouched', () => {
    const text = `{"s":"${MSG_ID}","t":"-${MSG_ID}x"}`;
    expect(parseJson(text)).toEqual({ s: MSG_ID, t: `-${MSG_ID}x` });
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('parses floats exactly as JSON.parse does, on the fast and the lossless path', () => {
    const floats = '{"a":1.5,"b":-0.1,"c":2.5e-3,"d":1e21,"e":0.30000000000000004}';
    expect(parseJson(floats)).toEqual(JSON.parse(floats));
    // The long digit run forces the lossless parser; the floats must come out the same.
    const withId = `{"id":${MSG_ID},"a":1.5,"b":-0.1,"c":2.5e-3,"e":0.30000000000000004,"f":12345678901234567.5}`;
    const parsed = parseJson(withId) as Record<string, unknown>;
    const native = JSON.parse(withId) as Record<string, unknown>;
    for (const key of ['a', 'b', 'c', 'e', 'f']) expect(parsed[key]).toBe(native[key]);
    expect(stringifyJson({ a: 1.5, b: -0.1 })).toBe('{"a":1.5,"b":-0.1}');
  });

  it('keeps safe integers as number, even when written with 16 digits', () => {
    const parsed = parseJson('[9007199254740991,-9007199254740991,2000000000001,1234567890123456]') as unknown[];
    expect(parsed).toEqual([9007199254740991, -9007199254740991, 2000000000001, 1234567890123456]);
    for (const value of parsed) expect(typeof value).toBe('number');
    // The first integer beyond the safe range already becomes a bigint.
    expect(parseJson('[9007199254740993]')).toEqual([9007199254740993n]);
  });

  it('parses documents without long numbers like JSON.parse', () => {
    const text = '{"code":200,"data":[{"user_id":2000000000001,"username":"ann","ok":true,"x":null}],"message":null}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });
});

describe('the int64 scalar of the table', () => {
  it('accepts numbers, bigints and decimal strings, and keeps large values as bigint', () => {
    expect(int64.parse(2000000000001)).toBe(2000000000001);
    expect(int64.parse(BigInt(MSG_ID))).toBe(BigInt(MSG_ID));
    expect(int64.parse(MSG_ID)).toBe(BigInt(MSG_ID));
    expect(int64.parse(`-${MSG_ID}`)).toBe(-BigInt(MSG_ID));
    expect(int64.parse('0')).toBe(0);
    expect(int64.parse(42n)).toBe(42);
    expect(int64.parse('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(int64.parse('-9223372036854775808')).toBe(-(2n ** 63n));
  });

  it('refuses text, fractions and values beyond int64', () => {
    for (const bad of ['abc', '', '1.5', '1e3', ' 1', 1.5, Number.NaN, true, null, undefined]) {
      expect(int64.safeParse(bad).success, `int64 accepted ${String(bad)}`).toBe(false);
    }
    for (const beyond of ['9223372036854775808', '-9223372036854775809', '99999999999999999999', 2n ** 63n, 1e20]) {
      expect(int64.safeParse(beyond).success, `int64 accepted ${String(beyond)}`).toBe(false);
    }
  });
});

describe('the int32In, bool and double scalars of the table', () => {
  const hour = int32In(0, 23);

  it('int32In accepts integers inside the range, also as query strings', () => {
    expect(hour.parse(0)).toBe(0);
    expect(hour.parse(23)).toBe(23);
    expect(hour.parse('7')).toBe(7);
  });

  it('int32In refuses values outside the range, fractions and text', () => {
    for (const bad of [-1, 24, '24', 1.5, '1.5', 'x', '', null]) {
      expect(hour.safeParse(bad).success, `int32In(0, 23) accepted ${String(bad)}`).toBe(false);
    }
  });

  it("bool accepts true and false, and the query strings 'true' and 'false'", () => {
    expect(bool.parse(true)).toBe(true);
    expect(bool.parse(false)).toBe(false);
    expect(bool.parse('true')).toBe(true);
    expect(bool.parse('false')).toBe(false);
  });

  it('bool refuses anything else', () => {
    for (const bad of ['yes', 'TRUE', '1', 1, 0, '', null]) {
      expect(bool.safeParse(bad).success, `bool accepted ${String(bad)}`).toBe(false);
    }
  });

  it('double accepts numbers and numeric strings', () => {
    expect(double.parse(1.5)).toBe(1.5);
    expect(double.parse(-2)).toBe(-2);
    expect(double.parse('324.5')).toBe(324.5);
    expect(double.parse('876')).toBe(876);
  });

  it('double refuses text, empty strings and non-finite numbers', () => {
    for (const bad of ['abc', '', '  ', Number.NaN, Number.POSITIVE_INFINITY, 'Infinity', true, null]) {
      expect(double.safeParse(bad).success, `double accepted ${String(bad)}`).toBe(false);
    }
  });
});
