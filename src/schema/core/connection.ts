// Relay connections: one PageInfo type, a cursor per edge that resumes right after that edge.
// A cursor names an item, never a position, so pages neither repeat nor skip when the list changes
// between two reads. Lists come three ways:
// - whole lists the service answers at once (admins, announcements, files, devices, joined groups,
//   the chat list): paged here both ways, `first`/`after` and `last`/`before`, by each item's sort
//   key and identity (keyset.ts);
// - lists the service pages (cursor/limit/total: members, applications, invitations, blacklist):
//   forward only, as the service pages; a cursor holds a service cursor, a count and the item's
//   identity, and a read resumes after that item wherever it now is (service-paging.ts);
// - the admin user list, paged by number, with no cursor to start from: its cursor is an offset
//   (user/admin.ts, offsetConnection below).
// Item cursors are opaque: base64url of a JSON array. The positional cursors of before
// (base64url of `<skip>:<service cursor>`) are refused by name, never read as something else.
import type { FieldMap, ObjectFieldBuilder, ObjectRef } from '@pothos/core';
import type { Int64 } from '../../rest/json';
import { builder, type SchemaTypes } from './builder';
import { badUserInput, inRange } from './inputs';

interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export const PageInfoRef = builder.objectRef<PageInfoShape>('PageInfo').implement({
  description: 'Where a page of a connection starts and ends, and whether more items lie beyond either end.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { nullable: false, description: 'Whether items follow this page.' }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', {
      nullable: false,
      description: 'Whether items precede this page (forward paging: true when the page was read `after` a cursor).',
    }),
    startCursor: t.exposeString('startCursor', { nullable: true, description: "The first edge's cursor; null when the page is empty." }),
    endCursor: t.exposeString('endCursor', {
      nullable: true,
      description: "The last edge's cursor: pass it as `after` to read what follows. Null when the page is empty.",
    }),
  }),
});

export interface EdgeShape<T> {
  readonly node: T;
  readonly cursor: string;
}

export interface ConnectionShape<T> {
  edges: EdgeShape<T>[];
  pageInfo: PageInfoShape;
  totalCount: Int64 | null;
}

// Cursors are encoded when read, not when the page is made: a page selected for its nodes alone
// (a list of members with their names) encodes none. Classes, so that no closure is made per edge.

/** An edge whose cursor is `encode(from)`, encoded each time it is read (a deterministic value). */
class Edge<T, A> implements EdgeShape<T> {
  constructor(
    readonly node: T,
    private readonly encode: (from: A) => string,
    private readonly from: A,
  ) {}

  get cursor(): string {
    return this.encode(this.from);
  }
}

export const edgeOf = <T, A>(node: T, encode: (from: A) => string, from: A): EdgeShape<T> => new Edge(node, encode, from);

/** The page's first and last edges' cursors, read from them when selected. */
class PageInfo implements PageInfoShape {
  constructor(
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
    private readonly edges: readonly EdgeShape<unknown>[],
  ) {}

  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }

  get endCursor(): string | null {
    return this.edges[this.edges.length - 1]?.cursor ?? null;
  }
}

export const pageInfoOf = (edges: readonly EdgeShape<unknown>[], hasNextPage: boolean, hasPreviousPage: boolean): PageInfoShape =>
  new PageInfo(hasNextPage, hasPreviousPage, edges);

/** The builder's own schema types (context and scalars), so any of its refs fits. */
type Types = SchemaTypes;

/**
 * Defines `<Name>Connection` and `<Name>Edge` for a node type; `edgeFields` adds fields of the
 * edge's own (what a list says of its item: a friend's alias in the acting user's contacts).
 */
export function connectionOf<T>(
  name: string,
  node: ObjectRef<Types, T>,
  what: string,
  edgeFields?: (t: ObjectFieldBuilder<Types, EdgeShape<T>>) => FieldMap,
  /** Set for a list the service does not count: totalCount is always null, deprecated for this reason. */
  uncounted?: string,
) {
  const edge = builder.objectRef<EdgeShape<T>>(`${name}Edge`).implement({
    description: `One ${what} in a page.`,
    fields: (t) => ({
      ...edgeFields?.(t),
      // Pothos's resolver-result type cannot be checked against an unresolved generic T.
      node: t.field({ type: node, nullable: false, description: `The ${what}.`, resolve: (e) => e.node as never }),
      cursor: t.exposeString('cursor', {
        nullable: false,
        description: `Pass as \`after\` to read the ${what}s after this one (as \`before\`, where the field takes it, for those before).`,
      }),
    }),
  });
  const connection = builder.objectRef<ConnectionShape<T>>(`${name}Connection`).implement({
    description: `A page of ${what}s.`,
    fields: (t) => ({
      nodes: t.field({
        type: [node],
        nullable: false,
        description: `The ${what}s of this page (the edges' nodes).`,
        resolve: (c) => c.edges.map((e) => e.node),
      }),
      edges: t.field({
        type: [edge],
        nullable: false,
        description: `The ${what}s of this page, with their cursors.`,
        resolve: (c) => c.edges,
      }),
      pageInfo: t.field({ type: PageInfoRef, nullable: false, description: 'Paging state.', resolve: (c) => c.pageInfo }),
      totalCount: t.field({
        type: 'SafeInt',
        nullable: true,
        description: uncounted
          ? `Always null: the service does not count the ${what}s.`
          : 'How many there are in all, as the service counts them.',
        ...(uncounted ? { deprecationReason: uncounted } : {}),
        resolve: (c) => c.totalCount,
      }),
    }),
  });
  // The edge type too: a payload or an event offers one edge of the list (a cursor valid as `after`).
  return Object.assign(connection, { edge });
}

export const MAX_PAGE = 1000;

/** `first`/`after` arguments of a connection field. */
export const pageArgs = (defaultFirst: number, max = MAX_PAGE) =>
  builder.args((t) => ({
    first: t.int({ required: false, defaultValue: defaultFirst, description: `How many to read (1-${max}).` }),
    after: t.string({ required: false, description: "An edge's cursor (or `pageInfo.endCursor`): read what follows it." }),
  }));

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** `first`, checked. */
export const firstOf = (args: PageArgs, defaultFirst: number, max = MAX_PAGE) => inRange('first', args.first ?? defaultFirst, 1, max);

/** An item cursor holding `values` (JSON). */
export const encodeCursor = (values: readonly unknown[]): string => Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');

export const notOurs = (arg: string) => badUserInput(arg, 'is not a cursor of this list');

/** The values of an item cursor; a positional cursor of before, or anything else, is refused naming `arg`. */
export function decodeCursor(arg: string, cursor: string): unknown[] {
  const text = /^[A-Za-z0-9_-]{1,2048}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (text.startsWith('[')) {
    try {
      const values: unknown = JSON.parse(text);
      if (Array.isArray(values)) return values;
    } catch {
      // Not JSON: not ours.
    }
  }
  if (/^\d{1,9}:/.test(text)) {
    throw badUserInput(arg, 'is a positional cursor of an earlier version, no longer accepted: read the list again from the start');
  }
  throw notOurs(arg);
}

/**
 * A connection of the admin user list (paged by number: no cursor to anchor on), read at `offset`;
 * its cursor is the offset after an edge (base64url of `<offset>:`).
 */
const offsetCursor = (skip: number) => Buffer.from(`${skip}:`, 'utf8').toString('base64url');

export function offsetConnection<T>(items: readonly T[], offset: number, hasNextPage: boolean): ConnectionShape<T> {
  const edges = items.map((node, i) => edgeOf(node, offsetCursor, offset + i + 1));
  return { edges, pageInfo: pageInfoOf(edges, hasNextPage, offset > 0), totalCount: null };
}

/** The offset an offsetConnection cursor names (0 without one). */
export function offsetOf(after: string | null | undefined): number {
  if (!after) return 0;
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(after) ? Buffer.from(after, 'base64url').toString('utf8') : '';
  const match = /^(\d{1,9}):$/.exec(text);
  if (!match) throw notOurs('after');
  return Number(match[1]);
}
