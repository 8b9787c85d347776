// Fetching by ID alone: `node(id:)`. A user or group ID (the service's int64) is told apart by
// the request's one POST /group/info/batch (shared with Group's summary fields) and, beside it, the
// user's public profile (user/peers.ts), so a caller that may not read another user's profile gets the object,
// not null. A global ID is fetched by the fetch its kind registered (node-kinds.ts).
import { builder, reaches } from './core/builder';
import { globalIdOf } from './core/global-id';
import { refuseNonId } from './core/global-id-inputs';
import { fetchNode } from './core/node-kinds';
import { NodeRef } from './core/refs';
import { groupOrNull } from './message/message';
import { SCAN_PAGES } from './group/loaders';
import { userExists } from './user/peers';
import { ALL_ID_KINDS, idInput } from './core/id-kinds';
import { startedRead } from './core/speculative';

builder.queryField('node', (t) =>
  t.field({
    type: NodeRef,
    description:
      'The object with this ID; null when there is none (or the caller cannot see it). A user or group ID, or a global ID ' +
      'that an `id` answered (see Node).',
    extensions: {
      // The reads of the kinds' fetches (node-kinds.ts) too: a message, a conversation, a device, a group's objects.
      ...reaches(
        'POST /group/info/batch',
        'GET /user/profile',
        'GET /message/conversation',
        'GET /message/unread',
        'GET /group/user_joined',
        'GET /user/device/list',
        'POST /group/members/display_name',
        'GET /group/blocked_list',
        'POST /group/application_list',
        'GET /group/invitation_list',
        'GET /group/announcement',
        'GET /group/file',
        'GET /roster/apply/list',
      ),
      readsGlobalIds: true,
      // One kind's reads run, not all: a list searched page by page is the most (SCAN_PAGES calls).
      maxCalls: SCAN_PAGES,
    },
    args: { id: t.arg(idInput({ for: ALL_ID_KINDS, required: true, description: 'A user or group ID, or a global ID.' })) },
    resolve: async (_root, args, ctx, info) => {
      // This field is left out of global-id-inputs.ts: its argument may still be a global ID.
      const global = globalIdOf(args.id);
      if (global) return fetchNode(global, ctx, info);
      refuseNonId(args.id, 'id');
      const { id } = args;
      // Both kinds tried at once (one round trip, not two): the user's read is needless for a group's ID.
      const user = startedRead(ctx, userExists(id, ctx));
      return (await groupOrNull(id, ctx)) ?? ((await user) ? { id } : null);
    },
  }),
);
