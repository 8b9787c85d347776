// Speculative reads as one mechanism: starts keyed by type and field for any parent, started from
// the fields a selection asks for (through fragments on that type, not on another), with their
// arguments; a started read's failure handled once and recorded with the request, never an
// unhandled rejection; and the one selection walker the starts and `selects` share.
import { buildSchema, execute, type GraphQLResolveInfo, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../../src/context';
import { selectedFields, selects, selectsDeep } from '../../../src/schema/core/selection';
import {
  sharedRead,
  speculationOf,
  startedRead,
  startNestedReads,
  startSelectedReads,
  startsAhead,
} from '../../../src/schema/core/speculative';

const schema = buildSchema(`
  interface Node { id: ID! }
  type Box implements Node { id: ID! label(lang: String): String size: Int inner: Box }
  type Other implements Node { id: ID! size: Int }
  type Query { box: Box node: Node }
`);

/** The resolve info of `field` of Query when `document` runs (the resolver answers null). */
function infoOf(document: string, field: 'box' | 'node', variableValues?: Record<string, unknown>): GraphQLResolveInfo {
  let seen: GraphQLResolveInfo | undefined;
  const rootValue = {
    [field]: (_a: unknown, _c: unknown, info: GraphQLResolveInfo) => {
      seen = info;
      return null;
    },
  };
  void execute({ schema, document: parse(document), rootValue, variableValues });
  return seen!;
}

const request = () => ({ loaders: new Map() }) as unknown as GatewayContext;
const names = (info: GraphQLResolveInfo, type?: string) => selectedFields(info, type).map((f) => f.name.value);

describe('the selection walker', () => {
  it('reads fields through inline fragments and named spreads', () => {
    const info = infoOf('{ box { id ... on Box { size } ...F } } fragment F on Box { inner { label } }', 'box');
    expect(names(info)).toEqual(['id', 'size', 'inner']);
    expect(selects(info, 'size')).toBe(true);
    expect(selects(info, 'label')).toBe(false);
    expect(selectsDeep(info, info.fieldNodes[0]!, 'label')).toBe(true);
  });

  it("passes over a fragment on another object type when asked for one type's fields, entering an interface's", () => {
    const info = infoOf('{ node { id ... on Other { size } ... on Box { label } ... on Node { id } } }', 'node');
    expect(names(info, 'Box')).toEqual(['id', 'label', 'id']);
    expect(names(info)).toEqual(['id', 'size', 'label', 'id']);
  });
});

describe('starts keyed by type and field', () => {
  const started: string[] = [];
  startsAhead<string>('Box', 'label', (parent, _ctx, { args }) => {
    started.push(`label of ${parent} in ${String(args.lang)}`);
    return Promise.resolve('x');
  });
  startsAhead<string>('Box', 'size', (parent) => {
    started.push(`size of ${parent}`);
    return undefined;
  });

  it("starts the reads of the type's selected fields from the parent, with the arguments written there", () => {
    started.length = 0;
    const info = infoOf('query ($l: String) { node { ... on Box { label(lang: $l) } ... on Other { size } } }', 'node', { l: 'fr' });
    startSelectedReads('Box', 'b1', request(), info);
    expect(started).toEqual(['label of b1 in fr']);
  });

  it('leaves a field under a directive to start when it resolves', () => {
    started.length = 0;
    startSelectedReads('Box', 'b2', request(), infoOf('{ box { size @include(if: true) label } }', 'box'));
    expect(started).toEqual(['label of b2 in undefined']);
  });

  it("starts, from a field's start, the reads of the fields selected below it, from the parent it will resolve to", () => {
    started.length = 0;
    startsAhead<string>('Box', 'inner', (parent, ctx, field) => {
      startNestedReads('Box', `${parent}'s inner`, ctx, field);
      return undefined;
    });
    startSelectedReads('Box', 'b3', request(), infoOf('{ node { ... on Box { inner { ... on Box { size } } } } }', 'node'));
    expect(started).toEqual(["size of b3's inner"]);
  });

  it('refuses a second start for the same field of a type', () => {
    expect(() => startsAhead('Box', 'label', () => undefined)).toThrow(/Box.label registered twice/);
  });
});

describe('a started read', () => {
  it('is handed back as it is, its failure handled once and recorded with the request', async () => {
    const ctx = request();
    const failure = new Error('upstream down');
    const read = Promise.reject(failure);
    expect(startedRead(ctx, read)).toBe(read);
    startedRead(ctx, read);
    await expect(read).rejects.toBe(failure);
    await Promise.resolve();
    expect(speculationOf(ctx)).toEqual({ started: 1, failures: [failure] });
  });

  it('records nothing for a read that succeeds', async () => {
    const ctx = request();
    await startedRead(ctx, Promise.resolve(1));
    expect(speculationOf(ctx)).toEqual({ started: 1, failures: [] });
  });

  it('shared by key, failure included, when the field must not ask again', async () => {
    const ctx = request();
    let reads = 0;
    const read = () => {
      reads++;
      return Promise.reject(new Error('no announcement'));
    };
    const first = sharedRead(ctx, 'k', read);
    expect(sharedRead(ctx, 'k', read)).toBe(first);
    await expect(first).rejects.toThrow('no announcement');
    expect(reads).toBe(1);
  });
});
