// Global IDs as data: every kind can be fetched by node(id:) and is a Node of the schema, and only
// the gateway's own exact encoding decodes (one object, one ID text).
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../../src/schema';
import { decodeGlobalId, encodeGlobalId, GLOBAL_KINDS, type GlobalKind } from '../../../src/schema/core/global-id';
import { fetchableKinds } from '../../../src/schema/core/node-kinds';

const kinds = Object.keys(GLOBAL_KINDS) as GlobalKind[];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('global ID kinds', () => {
  it('every kind registers a fetch for node(id:)', () => {
    expect(fetchableKinds().sort()).toEqual([...kinds].sort());
  });

  it('every kind is a schema type implementing Node', () => {
    for (const kind of kinds) {
      const type = schema.getType(kind);
      expect(isObjectType(type) && type.getInterfaces().map((i) => i.name), kind).toContain('Node');
    }
  });
});

describe('decodeGlobalId', () => {
  it('reads back what encodeGlobalId wrote, int64 parts exact', () => {
    const id = encodeGlobalId('Message', [2000000000001, 1552747048460091409n]);
    expect(decodeGlobalId(id)).toMatchObject({ kind: 'Message', parts: [2000000000001, 1552747048460091409n], text: id });
  });

  it('refuses texts the gateway never writes: another kind, a wrong part count, leading zeros, beyond int64, padding', () => {
    for (const text of [
      b64('Bogus:1:2'),
      b64('Message:1'),
      b64('Message:01:2'),
      b64(`Message:1:${2n ** 63n}`),
      `${b64('Conversation:12345')}==`,
      '1552747048460091409',
    ]) {
      expect(decodeGlobalId(text), text).toBeUndefined();
    }
  });
});
