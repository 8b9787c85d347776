// Fetching by ID alone: `node(id:)` for User and Group, null for a missing one, as `user(id:)` and
// `group(id:)` answer too. The group check is the request's one POST /group/info/batch (shared
// with Group's summary fields); the user check reads the public profile (peers.ts), so a caller
// that may not read another user's profile gets the object, not null.
import { builder, reaches } from '../core/builder';
import { NodeRef } from '../core/refs';
import { groupOrNull } from '../message/message';
import { userExists } from './peers';

builder.queryField('node', (t) =>
  t.field({
    type: NodeRef,
    description:
      "The User or Group with this ID; null when there is none. IDs are the service's exact int64 IDs, not global " +
      "IDs: user and group IDs never coincide, so one batch group look-up (then the user's profile) tells which it is.",
    extensions: reaches('POST /group/info/batch', 'GET /user/profile'),
    args: { id: t.arg({ type: 'ID', required: true, description: 'A user ID or a group ID.' }) },
    resolve: async (_root, { id }, ctx) => (await groupOrNull(id, ctx)) ?? ((await userExists(id, ctx)) ? { id } : null),
  }),
);
