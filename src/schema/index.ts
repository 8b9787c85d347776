// Assembles the schema from the domain files. Nothing but imports and the build.
import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { specifiedDirectives } from 'graphql';
import { builder } from './core/builder';
import { useExactIds } from './core/exact-ids';
import { useGlobalIdInputs } from './core/global-id-inputs';
import { IDScalar } from './core/scalars';
import './user/token';
import './user/user';
import './user/display-name';
import './user/settings';
import './user/device';
import './push/preferences';
import './user/account';
import './user/admin';
import './user/status';
import './user/registration';
import './node';
import './user/early-proof';
import './group/group';
import './group/member';
import './group/announcement';
import './group/shared-file';
import './group/requests';
import './group/moderation';
import './group/settings';
import './group/update';
import './group/viewer';
import './file/upload-target';
import './file/upload';
import './file/download';
import './push/push';
import './message/message';
import './message/conversation';
import './message/conversations';
import './message/pins';
import './message/unread';
import './message/send';
import './message/edit';
import './message/broadcast';
import './message/assistant';
import './message/subscriptions';
import './message/conversation-events';
import './roster/request';
import './roster/relation';
import './roster/friends';
import './roster/blacklist';
import './roster/find-user';
import './roster/requests';
import './roster/request-writes';
import './roster/request-batch';
import './roster/contact-writes';
import './roster/live';

// @defer and @stream in the schema itself (the defer-stream plugin adds them only when absent), so
// schema.graphql declares them for client tooling: codegen validates deferred fragments against it.
export const schema = useGlobalIdInputs(
  useExactIds(builder.toSchema({ directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] }), IDScalar),
);
