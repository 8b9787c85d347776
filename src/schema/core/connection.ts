// Relay connections: one PageInfo type, a cursor per edge that resumes right after that edge.
// Lists come three ways and share one cursor format (opaque: base64url of `<skip>:<service cursor>`):
// - paged by the service (cursor/limit/total): an edge's cursor is the service cursor its page
//   was read from plus how many items of that page to skip; the last edge of a page that has a
//   next page carries the service's own cursor with nothing to skip;
// - whole lists the service answers at once (admins, announcements, ...): paged here, the cursor
//   is the offset (no service cursor);
// - the admin user list, paged by number: the cursor is the offset too (user/admin.ts).
// `first`/`after` page forwards; the service pages forward only, so there is no `last`/`before`
// (conversation history pages backwards: message/conversation.ts).
import type { ObjectFieldBuilder, ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { EndpointName } from '../../rest/endpoints';
import type { Int64 } from '../../rest/json';
import { builder, reaches, type SchemaTypes } from './builder';
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

interface EdgeShape<T> {
  node: T;
  cursor: string;
}

export interface ConnectionShape<T> {
  edges: EdgeShape<T>[];
  pageInfo: PageInfoShape;
  totalCount: Int64 | null;
}

/** The builder's own schema types (context and scalars), so any of its refs fits. */
type Types = SchemaTypes;

/** Defines `<Name>Connection` and `<Name>Edge` for a node type. */
export function connectionOf<T>(name: string, node: ObjectRef<Types, T>, what: string) {
  const edge = builder.objectRef<EdgeShape<T>>(`${name}Edge`).implement({
    description: `One ${what} in a page.`,
    fields: (t) => ({
      // Pothos's resolver-result type cannot be checked against an unresolved generic T.
      node: t.field({ type: node, nullable: false, description: `The ${what}.`, resolve: (e) => e.node as never }),
      cursor: t.exposeString('cursor', { nullable: false, description: `Pass as \`after\` to read the ${what}s after this one.` }),
    }),
  });
  return builder.objectRef<ConnectionShape<T>>(`${name}Connection`).implement({
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
        description: 'How many there are in all, as the service counts them.',
        resolve: (c) => c.totalCount,
      }),
    }),
  });
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

/** Where to resume: the service cursor to read from ('' for the start) and how many items to skip. */
interface Resume {
  service: string;
  skip: number;
}

function encodeCursor({ service, skip }: Resume): string {
  return Buffer.from(`${skip}:${service}`, 'utf8').toString('base64url');
}

export function decodeCursor(after: string | null | undefined): Resume {
  if (!after) return { service: '', skip: 0 };
  const text = /^[A-Za-z0-9_-]{1,2048}$/.test(after) ? Buffer.from(after, 'base64url').toString('utf8') : '';
  const match = /^(\d{1,9}):(.*)$/s.exec(text);
  if (!match) throw badUserInput('after', 'is not a cursor of this list');
  return { skip: Number(match[1]), service: match[2]! };
}

/** `first`, checked. */
export const firstOf = (args: PageArgs, defaultFirst: number, max = MAX_PAGE) => inRange('first', args.first ?? defaultFirst, 1, max);

/** A connection of `items`, which start `from` items after the resume point's service cursor. */
function edgesFrom<T>(
  items: readonly T[],
  from: Resume,
  more: { hasNextPage: boolean; next?: string },
  total: Int64 | null,
): ConnectionShape<T> {
  const edges = items.map((node, i) => {
    const last = i === items.length - 1;
    // The service's own cursor after a page's last item: the cheapest way to go on.
    const cursor =
      last && more.next ? encodeCursor({ service: more.next, skip: 0 }) : encodeCursor({ service: from.service, skip: from.skip + i + 1 });
    return { node, cursor };
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: more.hasNextPage,
      hasPreviousPage: from.service !== '' || from.skip > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount: total,
  };
}

/** The REST paging parameters that read `first` items after `after`: the skipped ones are read too. */
export function toPaging(args: PageArgs, defaultFirst: number) {
  const first = firstOf(args, defaultFirst);
  const from = decodeCursor(args.after);
  return { limit: from.skip + first, ...(from.service ? { cursor: from.service } : {}) };
}

/** A connection from a REST list reply (top-level cursor and total) read with toPaging(args). */
export function toConnection<R, T>(
  reply: { data: R[]; cursor?: string; total?: Int64 },
  args: PageArgs,
  map: (item: R) => T,
): ConnectionShape<T> {
  const from = decodeCursor(args.after);
  const next = reply.cursor ? reply.cursor : undefined;
  return edgesFrom(
    reply.data.slice(from.skip).map(map),
    from,
    { hasNextPage: next !== undefined, ...(next ? { next } : {}) },
    reply.total ?? null,
  );
}

/** A connection over a whole list the service answered at once; the cursor is the offset. */
export function listConnection<T>(all: readonly T[], args: PageArgs, defaultFirst: number): ConnectionShape<T> {
  const first = firstOf(args, defaultFirst);
  const from = decodeCursor(args.after);
  if (from.service !== '') throw badUserInput('after', 'is not a cursor of this list');
  const items = all.slice(from.skip, from.skip + first);
  return edgesFrom(items, from, { hasNextPage: from.skip + first < all.length }, all.length);
}

/** A connection of items read at an offset by some other means (the admin user list). */
export function offsetConnection<T>(items: readonly T[], offset: number, hasNextPage: boolean): ConnectionShape<T> {
  return edgesFrom(items, { service: '', skip: offset }, { hasNextPage }, null);
}

/**
 * A connection field over a list the service answers whole, from one endpoint: the gateway pages
 * it (listConnection), and the description says so.
 */
export function wholeListField<P, T>(
  t: ObjectFieldBuilder<Types, P>,
  o: {
    type: ObjectRef<Types, ConnectionShape<T>>;
    description: string;
    endpoint: EndpointName;
    defaultFirst: number;
    read: (parent: P, ctx: GatewayContext) => Promise<readonly T[]>;
  },
) {
  return t.field({
    type: o.type,
    description: `${o.description} The service answers all of them at once; the gateway pages them.`,
    extensions: reaches(o.endpoint),
    args: pageArgs(o.defaultFirst),
    resolve: async (parent, args, ctx) => listConnection(await o.read(parent, ctx), args, o.defaultFirst),
  });
}
