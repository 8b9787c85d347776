// Cursor-paged lists of the IM service (cursor/limit/total) as connections: `first`/`after`
// map to `limit`/`cursor`, and `totalCount` is the service's `total`. The service pages forward
// only, so there is no `last`/`before`.
import type { ObjectRef } from '@pothos/core';
import type { Int64 } from '../../rest/json';
import { builder, type SchemaTypes } from './builder';
import { inRange } from './inputs';

export interface PageInfoShape {
  hasNextPage: boolean;
  endCursor: string | null;
}

export const PageInfoRef = builder.objectRef<PageInfoShape>('PageInfo').implement({
  description: 'Where a page of a connection ends, and whether more follow.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { nullable: false, description: 'Whether another page follows.' }),
    endCursor: t.exposeString('endCursor', {
      nullable: true,
      description: 'Pass as `after` to read the next page; null on the last page.',
    }),
  }),
});

export interface ConnectionShape<T> {
  nodes: T[];
  pageInfo: PageInfoShape;
  totalCount: Int64 | null;
}

/** Defines `<Name>Connection` and `<Name>Edge` for a node type. */
/** The builder's own schema types (context and scalars), so any of its refs fits. */
type Types = SchemaTypes;

export function connectionOf<T>(name: string, node: ObjectRef<Types, T>, what: string) {
  const edge = builder.objectRef<{ node: T; cursor: string | null }>(`${name}Edge`).implement({
    description: `One ${what} in a page.`,
    fields: (t) => ({
      // Pothos's resolver-result type cannot be checked against an unresolved generic T.
      node: t.field({ type: node, nullable: false, description: `The ${what}.`, resolve: (e) => e.node as never }),
      cursor: t.exposeString('cursor', { nullable: true, description: 'The cursor of the page this item is on.' }),
    }),
  });
  return builder.objectRef<ConnectionShape<T>>(`${name}Connection`).implement({
    description: `A page of ${what}s.`,
    fields: (t) => ({
      nodes: t.field({ type: [node], nullable: false, description: `The ${what}s of this page.`, resolve: (c) => c.nodes }),
      edges: t.field({
        type: [edge],
        nullable: false,
        description: `The ${what}s of this page, as edges.`,
        resolve: (c) => c.nodes.map((n) => ({ node: n, cursor: c.pageInfo.endCursor })),
      }),
      pageInfo: t.field({ type: PageInfoRef, nullable: false, description: 'Paging state.', resolve: (c) => c.pageInfo }),
      totalCount: t.field({
        type: 'SafeInt',
        nullable: true,
        description: 'How many there are in all, as the service counts them.',
        resolve: (c) => c.totalCount,
      }),
    }),
  });
}

export const MAX_PAGE = 1000;

/** `first`/`after` arguments of a connection field. */
export const pageArgs = (defaultFirst: number) =>
  builder.args((t) => ({
    first: t.int({ required: false, defaultValue: defaultFirst, description: `How many to read (1-${MAX_PAGE}).` }),
    after: t.string({ required: false, description: 'The `endCursor` of the previous page.' }),
  }));

/** The REST paging parameters for `first`/`after`. */
export function toPaging(args: { first?: number | null; after?: string | null }, defaultFirst: number) {
  const limit = inRange('first', args.first ?? defaultFirst, 1, MAX_PAGE);
  return { limit, ...(args.after ? { cursor: args.after } : {}) };
}

/** A connection from a REST list reply with its top-level cursor and total. */
export function toConnection<R, T>(reply: { data: R[]; cursor?: string; total?: Int64 }, map: (item: R) => T): ConnectionShape<T> {
  const cursor = reply.cursor ? reply.cursor : null;
  return {
    nodes: reply.data.map(map),
    pageInfo: { hasNextPage: cursor !== null, endCursor: cursor },
    totalCount: reply.total ?? null,
  };
}
