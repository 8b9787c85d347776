// The contacts screen: a user's friends (8.11, IDs page by page), each edge with the list owner's
// notes on that friend (alias, ext, mute: 8.12, one batch for the page). The service pages forward
// only by an opaque cursor; the gateway reads the whole list (5,000 IDs a call) and pages it both
// ways by ID, so a cursor names a friend and pages neither repeat nor skip one when the list changes.
import type { ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type { RequestClient } from '../../rest/request-client';
import { connectionOf } from '../core/connection';
import { type SortKey, wholeListField } from '../core/keyset';
import { type UserParent, UserRef } from '../core/refs';
import { builder, reaches, type SchemaTypes } from '../core/builder';
import { restFor } from '../core/profile';
import { rosterItemOf } from './loaders';
import { NOTE, notes } from './relation';

/** A friend listed, with the client of the list's owner (whose notes the edge shows). */
interface FriendNode extends UserParent {
  readonly id: Int64;
  readonly listOwner: RequestClient;
}

/** The service's largest page of 8.11 (the emulator's reading), and how many such pages one read takes at most. */
const FRIEND_PAGE = 5000;
const FRIEND_PAGES = 5;

/** The user's friend IDs, ascending, read page after page (at most FRIEND_PAGES pages). */
async function friendIds(client: RequestClient): Promise<Int64[]> {
  const ids: Int64[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < FRIEND_PAGES; n++) {
    const reply = await client.call('GET /roster/list', { limit: FRIEND_PAGE, ...(cursor ? { cursor } : {}) });
    ids.push(...reply.data);
    cursor = reply.cursor || undefined;
    if (!cursor) break;
  }
  return ids;
}

/** A user ID as a sort key: its value where exact (user IDs lie near 2e12), else the list's order. */
export const idKey = (id: Int64): SortKey => {
  const n = Number(id);
  return { sort: Number.isSafeInteger(n) ? n : null, id: idText(id) };
};

/** A friend listed by `listOwner`'s client (an event's viewer, or the user whose list is read). */
export const friendNode = (id: Int64, listOwner: RequestClient): FriendNode => ({ id, listOwner });

const noteOf = (e: { node: FriendNode }, ctx: GatewayContext) => rosterItemOf(ctx, e.node.id, e.node.listOwner);
const EDGE_READ = reaches('POST /roster/list');

// The node is a User whose parent also holds the owner's client (User's fields read only its ID).
const FriendUserRef = UserRef as unknown as ObjectRef<SchemaTypes, FriendNode>;

const FriendConnectionRef = connectionOf('Friend', FriendUserRef, 'friend', (t) => ({
  alias: t.string({
    description: `The remark name the list's owner gave this friend. ${NOTE}`,
    extensions: EDGE_READ,
    resolve: async (e, _args, ctx) => notes.alias(await noteOf(e, ctx)),
  }),
  ext: t.string({
    description: `The extension string the list's owner keeps for this friend. ${NOTE}`,
    extensions: EDGE_READ,
    resolve: async (e, _args, ctx) => notes.ext(await noteOf(e, ctx)),
  }),
  muted: t.boolean({
    description: `Whether the list's owner muted this friend's messages. ${NOTE}`,
    extensions: EDGE_READ,
    resolve: async (e, _args, ctx) => notes.muted(await noteOf(e, ctx)),
  }),
}));

/** An edge of a friends list (a FriendAdded event offers one). */
export const FriendEdgeRef = FriendConnectionRef.edge;

builder.objectFields(UserRef, (t) => ({
  friends: wholeListField(t, {
    type: FriendConnectionRef,
    description:
      "The user's friends (the acting user's, or with an admin token any user's), by user ID, each edge with the owner's " +
      'alias, ext and mute for that friend; select them on the node (User.alias, …) for a cache that updateFriend keeps current.',
    endpoint: 'GET /roster/list',
    defaultFirst: 100,
    key: (f: FriendNode) => idKey(f.id),
    order: 'ascending',
    read: async (u, ctx) => {
      const owner = restFor(u, ctx);
      return (await friendIds(owner)).map((id) => friendNode(id, owner));
    },
  }),
}));
