// THE TABLE: every endpoint of the IM REST interface (spec/rest-1..3-*.md) as data. The key is
// the method the client sends (the first one listed) and the path. Nothing here performs a call:
// the client (client.ts) and the emulator (src/emulator) both interpret these entries.
import { z } from 'zod';
import type { Int64 } from './json';
import type * as R from './records';
import {
  bareString,
  bool,
  data,
  double,
  type EndpointDef,
  type EnvelopeExtra,
  int32,
  int32In,
  int32Of,
  int64,
  int64List,
  str,
  strList,
} from './table';

type Defaults = { groupIdHeader: true; auth: 'token'; result: 'json'; extras: readonly []; effect: 'read' | 'write' };
type Given = Omit<EndpointDef, keyof Defaults> & Partial<Pick<EndpointDef, keyof Defaults>>;

function endpoint<const E extends Given>(def: E): Omit<Defaults, keyof E> & E {
  const effect = def.methods[0] === 'GET' ? 'read' : 'write';
  return { groupIdHeader: true, auth: 'token', result: 'json', extras: [], effect, ...def } as Omit<Defaults, keyof E> & E;
}

const obj = z.object;
const opt = <T extends z.ZodType>(t: T) => t.optional();

// ---- shapes shared by several endpoints ----

const LIST_PAGE: readonly EnvelopeExtra[] = ['cursor', 'total', 'version'];
const pageQuery = { cursor: opt(str), limit: opt(int32In(1, 2 ** 31 - 1)), version: opt(int64) };
const groupMembers = { group_id: int64, user_list: int64List };
const groupValue = <T extends z.ZodType>(value: T) => obj({ group_id: int64, value });

const tokenCredentials = { password: str, device_guid: opt(str) };

const SEND_BODY = obj({
  content_type: int32Of(0, 1, 2, 3, 4, 5, 6, 7),
  content: str,
  attachment: str,
  targets: int64List,
  type: int32Of(1, 2),
  from_user_id: opt(int64),
  config: opt(str),
  ext: opt(str),
  transaction_id: opt(int64),
});

const IMAGE_QUERY = {
  image_type: opt(int32Of(1, 2, 3)),
  w: opt(double),
  h: opt(double),
  sdk_sign: opt(str),
  store_token: opt(str),
  thumbnail_strategy: opt(int32Of(1, 2)),
};

const CHAT_FILE_TYPES = [100, 101, 102, 103, 104, 200, 201, 202, 203];

const vendorFields = { sound: opt(str), channel_id: opt(str), click_action: opt(z.enum(['intent', 'open_app'])), intent: opt(str) };
const vendor = obj(vendorFields);

/** The push audience: 'all', or exactly one list kind. Sizes are checked by the service (12005). */
const PUSH_AUDIENCE = z.union(
  [
    z.literal('all'),
    z.strictObject({ tag: strList }),
    z.strictObject({ alias: strList }),
    z.strictObject({ user_id: int64List }),
    z.strictObject({ push_token: strList }),
  ],
  { error: 'expected "all" or exactly one of {tag}, {alias}, {user_id}, {push_token}' },
);

const PUSH_BODY = obj({
  audience: opt(PUSH_AUDIENCE),
  setting: opt(
    obj({
      request_id: opt(str),
      distribution_strategy: opt(z.enum(['', 'combined', 'nativepush_only', 'ospush_only'])),
      ospush_sequence: opt(z.array(z.enum(['ups', 'fcm', 'huawei', 'xiaomi', 'oppo', 'vivo', 'meizu']))),
    }),
  ),
  message: opt(
    obj({
      type: opt(z.enum(['', 'text', 'image', 'cmd'])),
      title: opt(str),
      body: opt(str),
      attachment_url: opt(str),
      big_text: opt(str),
      badge: opt(str),
      ext: opt(z.record(z.string(), z.unknown())),
      show_begin_time: opt(int64),
      show_end_time: opt(int64),
      ios: opt(
        obj({
          sound: opt(str),
          content_available: opt(bool),
          mutable_content: opt(bool),
          category: opt(str),
          thread_id: opt(str),
          subtitle: opt(str),
          apns_collapse_id: opt(str),
        }),
      ),
      android: opt(vendor),
      huawei: opt(obj({ ...vendorFields, badge_class: opt(str) })),
      xiaomi: opt(vendor),
      oppo: opt(vendor),
      flyme: opt(vendor),
      fcm: opt(vendor),
      vivo: opt(obj({ ...vendorFields, push_mode: opt(int32Of(0, 1)), classification: opt(int32Of(0, 1)) })),
    }),
  ),
});

const hour = int32In(0, 23);
const SETTINGS_BODY = obj({
  user_id: int64,
  id: opt(int64),
  auth_mode: opt(int32Of(0, 1, 2, 3)),
  auth_question: opt(str),
  auth_answer: opt(str),
  auto_download: opt(bool),
  group_confirm: opt(bool),
  no_push: opt(bool),
  no_push_detail: opt(bool),
  no_push_start_hour: opt(hour),
  no_push_end_hour: opt(hour),
  silence_start_time: opt(hour),
  silence_end_time: opt(hour),
  no_sounds: opt(bool),
  vibratory: opt(bool),
  push_nick_name: opt(str),
  push_token: opt(str),
});

const PROFILE_FIELDS = { description: opt(str), nick_name: opt(str), private_info: opt(str), public_info: opt(str) };

// ---- the table ----

export const endpoints = {
  // Section 2: tokens
  'POST /token/id': endpoint({
    no: '2', summary: 'Get a user token by user ID and password.', methods: ['POST'], path: '/token/id',
    body: obj({ user_id: int64, ...tokenCredentials }), auth: 'none', effect: 'issue', data: data<R.TokenRecord>(),
  }),
  'POST /token/login': endpoint({
    no: '2', summary: 'Get a user token by login name (phone number, e-mail or user name) and password.',
    methods: ['POST'], path: '/token/login',
    body: obj({ login_name: str, ...tokenCredentials }), auth: 'none', effect: 'issue', data: data<R.TokenRecord>(),
  }),
  'POST /token/user': endpoint({
    no: '2', summary: 'Get a user token by user name and password.', methods: ['POST'], path: '/token/user',
    body: obj({ name: str, ...tokenCredentials }), auth: 'none', effect: 'issue', data: data<R.TokenRecord>(),
  }),

  // Section 5: messages
  'GET /message/ack': endpoint({
    no: '5.1', summary: 'Send a read receipt.', methods: ['GET'], path: '/message/ack',
    query: obj({ conversation_id: opt(int64), device_sn: opt(int32), msg_id: opt(int64) }), effect: 'write', data: data<boolean>(),
  }),
  'GET /message/conversation': endpoint({
    no: '5.2', summary: 'Messages of a conversation, newest first, paging backwards.', methods: ['GET'],
    path: '/message/conversation',
    query: obj({ limit: int32In(1, 2 ** 31 - 1), msg_id_start: int64, opposite_id: int64 }),
    data: data<R.ConversationPage>(),
  }),
  'DELETE /message/conversation': endpoint({
    no: '5.3', summary: 'Delete a conversation for the acting user.', methods: ['DELETE'], path: '/message/conversation',
    query: obj({ conversation_id: int64 }), data: data<boolean>(),
  }),
  'PUT /message/notify': endpoint({
    no: '5.4', summary: 'Send a system notification.', methods: ['PUT', 'POST'], path: '/message/notify',
    body: SEND_BODY, data: data<boolean>(),
  }),
  'PUT /message/recall': endpoint({
    no: '5.5', summary: 'Recall (revoke) a message.', methods: ['PUT', 'POST'], path: '/message/recall',
    body: obj({ conversation_id: int64, msg_id: int64 }), data: data<boolean>(),
  }),
  'PUT /message/send': endpoint({
    no: '5.6', summary: 'Send a message to users or groups.', methods: ['PUT', 'POST'], path: '/message/send',
    body: SEND_BODY, extras: ['msg_ids'], data: data<boolean>(),
  }),
  'GET /message/unread': endpoint({
    no: '5.7', summary: 'Recent conversations with unread counts.', methods: ['GET'], path: '/message/unread',
    data: data<R.UnreadEntry[]>(),
  }),

  // Section 6: files
  'GET /file/download/avatar': endpoint({
    no: '6.1', summary: 'Download an avatar.', methods: ['GET'], path: '/file/download/avatar',
    query: obj({ object_name: str, ...IMAGE_QUERY }), result: 'binary', data: data<never>(),
  }),
  'GET /file/download/chat': endpoint({
    no: '6.2', summary: 'Download a chat file.', methods: ['GET'], path: '/file/download/chat',
    query: obj({ file_sign: str, format: opt(z.enum(['amr', 'mp3'])), ...IMAGE_QUERY, source: opt(str) }),
    result: 'binary', data: data<never>(),
  }),
  'GET /file/upload/avatar/group': endpoint({
    no: '6.3', summary: 'Upload address of a group avatar.', methods: ['GET'], path: '/file/upload/avatar/group',
    query: obj({ group_id: int64 }), groupIdHeader: false, effect: 'issue', data: data<R.UploadTarget>(),
  }),
  'GET /file/upload/avatar/user': endpoint({
    no: '6.4', summary: 'Upload address of a user avatar.', methods: ['GET'], path: '/file/upload/avatar/user',
    effect: 'issue', data: data<R.UploadTarget>(),
  }),
  'GET /file/upload/chat': endpoint({
    no: '6.5', summary: 'Upload address of a chat file.', methods: ['GET'], path: '/file/upload/chat',
    query: obj({ file_type: int32Of(...CHAT_FILE_TYPES), to_id: int64, to_type: opt(int32Of(1, 2)) }),
    effect: 'issue', data: data<R.UploadTarget>(),
  }),
  'GET /file/upload/forward': endpoint({
    no: '6.6', summary: 'Address of a forwarded chat file.', methods: ['GET'], path: '/file/upload/forward',
    query: obj({ file_sign: str, to_id: int64, to_type: opt(int32Of(1, 2)) }), effect: 'issue', data: data<string>(),
  }),

  // Section 7: push
  'GET /push/certificate': endpoint({
    no: '7.1', summary: 'Push certificate of a provider.', methods: ['GET'], path: '/push/certificate',
    query: obj({ provider: int32In(1, 7), environment: opt(int32Of(0, 1)) }), auth: 'admin',
    data: data<R.PushCertificate>(),
  }),
  'POST /push/notify': endpoint({
    no: '7.2', summary: 'Send a push notification to devices.', methods: ['POST'], path: '/push/notify',
    body: PUSH_BODY, auth: 'admin', data: data<{ task_id: Int64 }>(),
  }),
  'POST /push/task/detail': endpoint({
    no: '7.3', summary: 'Delivery statistics of push tasks.', methods: ['POST'], path: '/push/task/detail',
    body: obj({ list: int64List }), auth: 'admin', effect: 'read', data: data<R.PushTaskStats[]>(),
  }),

  // Document 2: users
  'PUT /user/authmode': endpoint({
    no: '1.1', summary: 'Set the friend-adding verification mode.', methods: ['PUT', 'POST'], path: '/user/authmode',
    query: obj({ value: int32Of(0, 1, 2, 3) }), data: data<boolean>(),
  }),
  'PUT /user/avatar': endpoint({
    no: '1.2', summary: 'Set the avatar URL.', methods: ['PUT', 'POST'], path: '/user/avatar',
    body: obj({ avatar: str }), data: data<boolean>(),
  }),
  'PUT /user/avatar/batch': endpoint({
    no: '1.3', summary: 'Set the avatars of several users.', methods: ['PUT', 'POST'], path: '/user/avatar/batch',
    body: obj({ list: opt(z.array(obj({ avatar: str, user_id: int64 }))) }), auth: 'admin',
    data: data<R.UserBatchResult[]>(),
  }),
  'POST /user/change_password': endpoint({
    no: '1.4', summary: 'Change the password, giving the old one.', methods: ['POST'], path: '/user/change_password',
    body: obj({ new_password: str, old_password: str }), data: data<boolean>(),
  }),
  'POST /user/change_password_admin': endpoint({
    no: '1.5', summary: 'Set a password without the old one.', methods: ['POST'], path: '/user/change_password_admin',
    body: obj({ password: str }), auth: 'admin', data: data<boolean>(),
  }),
  'DELETE /user/delete': endpoint({
    no: '1.6', summary: 'Delete the user.', methods: ['DELETE', 'POST'], path: '/user/delete',
    body: obj({ password: opt(str) }), data: data<boolean>(),
  }),
  'GET /user/device/list': endpoint({
    no: '1.7', summary: "The user's devices.", methods: ['GET'], path: '/user/device/list',
    extras: ['cursor', 'version'], data: data<R.Device[]>(),
  }),
  'DELETE /user/device/remove': endpoint({
    no: '1.8', summary: 'Remove a device.', methods: ['DELETE', 'POST'], path: '/user/device/remove',
    query: obj({ device_sn: int32 }), data: data<boolean>(),
  }),
  'PUT /user/disable': endpoint({
    no: '1.9', summary: 'Ban users.', methods: ['PUT'], path: '/user/disable',
    body: obj({ list: int64List }), auth: 'admin', data: data<boolean>(),
  }),
  'PUT /user/download': endpoint({
    no: '1.10', summary: 'Download thumbnails and files automatically.', methods: ['PUT', 'POST'], path: '/user/download',
    query: obj({ value: bool }), data: data<boolean>(),
  }),
  'PUT /user/enable': endpoint({
    no: '1.11', summary: 'Unban users.', methods: ['PUT'], path: '/user/enable',
    body: obj({ list: int64List }), auth: 'admin', data: data<boolean>(),
  }),
  'PUT /user/kick': endpoint({
    no: '1.12', summary: 'Log a device (or all devices) out.', methods: ['PUT', 'POST'], path: '/user/kick',
    query: obj({ device_sn: opt(int32) }), data: data<boolean>(),
  }),
  'GET /user/list': endpoint({
    no: '1.13', summary: 'List the users of the app.', methods: ['GET'], path: '/user/list',
    query: obj({ page_num: opt(int32In(1, 2 ** 31 - 1)), page_size: opt(int32In(1, 2 ** 31 - 1)) }),
    auth: 'admin', data: data<R.UserListElement[]>(),
  }),
  'PUT /user/mobile': endpoint({
    no: '1.14', summary: 'Set the mobile number.', methods: ['PUT', 'POST'], path: '/user/mobile',
    query: obj({ mobile: str }), data: data<boolean>(),
  }),
  'PUT /user/nickname': endpoint({
    no: '1.15', summary: 'Set the nickname.', methods: ['PUT', 'POST'], path: '/user/nickname',
    query: obj({ nick_name: str }), data: data<boolean>(),
  }),
  'GET /user/online_status': endpoint({
    no: '1.16', summary: 'Whether the user is online.', methods: ['GET'], path: '/user/online_status',
    data: data<{ online: boolean }>(),
  }),
  'PUT /user/private': endpoint({
    no: '1.17', summary: 'Set the private extension information.', methods: ['PUT', 'POST'], path: '/user/private',
    body: bareString('info'), data: data<boolean>(),
  }),
  'GET /user/profile': endpoint({
    no: '1.18', summary: "The user's profile.", methods: ['GET'], path: '/user/profile',
    data: data<R.UserProfile>(),
  }),
  'PUT /user/profile': endpoint({
    no: '1.19', summary: 'Set profile fields.', methods: ['PUT', 'POST'], path: '/user/profile',
    body: obj(PROFILE_FIELDS), data: data<boolean>(),
  }),
  'PUT /user/profile/batch': endpoint({
    no: '1.20', summary: 'Set the profiles of several users.', methods: ['PUT', 'POST'], path: '/user/profile/batch',
    body: obj({ list: opt(z.array(obj({ ...PROFILE_FIELDS, user_id: opt(int64) }))) }), auth: 'admin',
    data: data<R.UserBatchResult[]>(),
  }),
  'PUT /user/public': endpoint({
    no: '1.21', summary: 'Set the public extension information.', methods: ['PUT', 'POST'], path: '/user/public',
    body: bareString('info'), data: data<boolean>(),
  }),
  'PUT /user/push': endpoint({
    no: '1.22', summary: 'Turn push messages off (true) or on.', methods: ['PUT', 'POST'], path: '/user/push',
    query: obj({ value: bool }), data: data<boolean>(),
  }),
  'POST /user/push/alias': endpoint({
    no: '1.23', summary: 'Set the push alias.', methods: ['POST'], path: '/user/push/alias',
    body: obj({ alias: str, push_token: opt(str) }), data: data<boolean>(),
  }),
  'POST /user/push/badge': endpoint({
    no: '1.24', summary: 'Set the push badge.', methods: ['POST'], path: '/user/push/badge',
    body: obj({ badge: int32 }), data: data<boolean>(),
  }),
  'PUT /user/push/detail': endpoint({
    no: '1.25', summary: 'Close push details (true) or show them.', methods: ['PUT', 'POST'], path: '/user/push/detail',
    query: obj({ value: bool }), data: data<boolean>(),
  }),
  'PUT /user/push/limit': endpoint({
    no: '1.26', summary: 'Set the do-not-disturb hours.', methods: ['PUT', 'POST'], path: '/user/push/limit',
    query: obj({ no_push_start_hour: hour, no_push_end_hour: hour }), data: data<boolean>(),
  }),
  'PUT /user/push/nickname': endpoint({
    no: '1.27', summary: 'Set the push nickname.', methods: ['PUT', 'POST'], path: '/user/push/nickname',
    query: obj({ value: str }), data: data<boolean>(),
  }),
  'GET /user/push/tag': endpoint({
    no: '1.28', summary: "The user's push tags.", methods: ['GET'], path: '/user/push/tag', data: data<string[]>(),
  }),
  'POST /user/push/tag': endpoint({
    no: '1.29', summary: 'Add push tags.', methods: ['POST'], path: '/user/push/tag',
    body: obj({ tags: strList }), data: data<boolean>(),
  }),
  'DELETE /user/push/tag': endpoint({
    no: '1.30', summary: 'Remove push tags.', methods: ['DELETE'], path: '/user/push/tag',
    body: obj({ tags: strList }), data: data<boolean>(),
  }),
  'DELETE /user/push/tag/all': endpoint({
    no: '1.31', summary: 'Remove all push tags.', methods: ['DELETE'], path: '/user/push/tag/all', data: data<boolean>(),
  }),
  'POST /user/register/batch': endpoint({
    no: '1.32', summary: 'Register several users.', methods: ['POST'], path: '/user/register/batch',
    body: obj({ list: opt(z.array(obj({ password: str, username: str }))) }), auth: 'none',
    data: data<R.UserBatchResult[]>(),
  }),
  'POST /user/register/push': endpoint({
    no: '1.33', summary: 'Register a user with push information.', methods: ['POST'], path: '/user/register/push',
    body: obj({ username: str, password: str, alias: opt(str), device_guid: opt(str), push_token: opt(str), sign: opt(str) }),
    auth: 'none', data: data<R.UserSettings>(),
  }),
  'POST /user/register/v2': endpoint({
    no: '1.34', summary: 'Register a user.', methods: ['POST'], path: '/user/register/v2',
    body: obj({ username: str, password: str }), auth: 'none', data: data<R.UserSettings>(),
  }),
  'GET /user/settings': endpoint({
    no: '1.35', summary: "The user's settings.", methods: ['GET'], path: '/user/settings', data: data<R.UserSettings>(),
  }),
  'PUT /user/settings': endpoint({
    no: '1.36', summary: "Set the user's settings.", methods: ['PUT', 'POST'], path: '/user/settings',
    body: SETTINGS_BODY, data: data<boolean>(),
  }),
  'PUT /user/sounds': endpoint({
    no: '1.37', summary: 'Turn the sound reminder off (true) or on.', methods: ['PUT', 'POST'], path: '/user/sounds',
    query: obj({ value: bool }), data: data<boolean>(),
  }),
  'PUT /user/token/bind': endpoint({
    no: '1.38', summary: 'Bind a device token for push.', methods: ['PUT', 'POST'], path: '/user/token/bind',
    body: obj({ device_sn: int32, device_token: str, notifier_name: str }), data: data<boolean>(),
  }),
  'DELETE /user/token/unbind': endpoint({
    no: '1.39', summary: 'Unbind the device token of a device.', methods: ['DELETE', 'POST'], path: '/user/token/unbind',
    query: obj({ deviceSn: int32 }), data: data<R.UnspecifiedObject>(),
  }),
  'PUT /user/username': endpoint({
    no: '1.40', summary: 'Set the user name.', methods: ['PUT', 'POST'], path: '/user/username',
    query: obj({ username: str }), data: data<boolean>(),
  }),
  'PUT /user/vibratory': endpoint({
    no: '1.41', summary: 'Vibrate on receiving a message (true) or not.', methods: ['PUT', 'POST'], path: '/user/vibratory',
    query: obj({ value: bool }), data: data<boolean>(),
  }),

  // Document 3: groups
  'POST /group/admin/add': endpoint({
    no: '4.1', summary: 'Make members admins.', methods: ['POST'], path: '/group/admin/add',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'DELETE /group/admin/remove': endpoint({
    no: '4.2', summary: 'Remove admins.', methods: ['DELETE', 'POST'], path: '/group/admin/remove',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'GET /group/admin_list': endpoint({
    no: '4.3', summary: 'Admins of a group.', methods: ['GET'], path: '/group/admin_list',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.Member[]>(),
  }),
  'GET /group/announcement': endpoint({
    no: '4.4', summary: 'An announcement.', methods: ['GET'], path: '/group/announcement',
    query: obj({ announcement_id: int64, group_id: int64 }), groupIdHeader: false, data: data<R.Announcement>(),
  }),
  'DELETE /group/announcement/delete': endpoint({
    no: '4.5', summary: 'Delete an announcement.', methods: ['DELETE', 'POST'], path: '/group/announcement/delete',
    query: obj({ announcement_id: int64, group_id: int64 }), groupIdHeader: false, data: data<R.UnspecifiedObject>(),
  }),
  'POST /group/announcement/edit': endpoint({
    no: '4.6', summary: 'Publish an announcement.', methods: ['POST'], path: '/group/announcement/edit',
    body: obj({ content: str, group_id: int64, title: str }), data: data<R.Announcement>(),
  }),
  'GET /group/announcement/last': endpoint({
    no: '4.7', summary: 'The latest announcement.', methods: ['GET'], path: '/group/announcement/last',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.Announcement>(),
  }),
  'GET /group/announcement/list': endpoint({
    no: '4.8', summary: 'Announcements of a group.', methods: ['GET'], path: '/group/announcement/list',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.Announcement[]>(),
  }),
  'POST /group/application_list': endpoint({
    no: '4.9', summary: 'Membership applications of groups.', methods: ['POST'], path: '/group/application_list',
    query: obj(pageQuery), body: obj({ group_list: int64List }), extras: LIST_PAGE, effect: 'read', data: data<R.GroupApplication[]>(),
  }),
  'POST /group/apply': endpoint({
    no: '4.10', summary: 'Apply to join a group.', methods: ['POST'], path: '/group/apply',
    body: obj({ group_id: int64, reason: opt(str) }), data: data<R.OperationResult>(),
  }),
  'PUT /group/apply/handle': endpoint({
    no: '4.11', summary: 'Approve or reject an application.', methods: ['PUT', 'POST'], path: '/group/apply/handle',
    body: obj({ approval: bool, group_id: int64, user_id: int64 }), data: data<R.OperationResult>(),
  }),
  'POST /group/ban': endpoint({
    no: '4.12', summary: 'Ban members from sending for a duration (minutes).', methods: ['POST'], path: '/group/ban',
    body: obj({ duration: int64, ...groupMembers }), data: data<R.OperationResult[]>(),
  }),
  'GET /group/banned_list': endpoint({
    no: '4.13', summary: 'Banned members.', methods: ['GET'], path: '/group/banned_list',
    query: obj({ group_id: int64, ...pageQuery }), groupIdHeader: false, extras: LIST_PAGE, data: data<R.Member[]>(),
  }),
  'POST /group/block': endpoint({
    no: '4.14', summary: 'Put users on the group blacklist.', methods: ['POST'], path: '/group/block',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'GET /group/blocked_list': endpoint({
    no: '4.15', summary: 'The group blacklist.', methods: ['GET'], path: '/group/blocked_list',
    query: obj({ group_id: int64, ...pageQuery }), groupIdHeader: false, extras: LIST_PAGE,
    data: data<R.BlacklistEntry[]>(),
  }),
  'POST /group/create': endpoint({
    no: '4.16', summary: 'Create a group.', methods: ['POST'], path: '/group/create',
    body: obj({ avatar: opt(str), description: opt(str), name: opt(str), type: opt(int32Of(0, 2)), user_list: opt(int64List) }),
    data: data<R.Group>(),
  }),
  'DELETE /group/destroy': endpoint({
    no: '4.17', summary: 'Dissolve a group.', methods: ['DELETE', 'POST'], path: '/group/destroy',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<boolean>(),
  }),
  'PUT /group/display_name': endpoint({
    no: '4.18', summary: "Set the acting member's display name in the group.", methods: ['PUT', 'POST'],
    path: '/group/display_name', body: groupValue(str), data: data<boolean>(),
  }),
  'GET /group/file': endpoint({
    no: '4.19', summary: 'A shared file.', methods: ['GET'], path: '/group/file',
    query: obj({ file_id: int64, group_id: int64 }), groupIdHeader: false, data: data<R.SharedFile>(),
  }),
  'DELETE /group/file/delete': endpoint({
    no: '4.20', summary: 'Delete shared files.', methods: ['DELETE', 'POST'], path: '/group/file/delete',
    body: obj({ file_list: int64List, group_id: int64 }), data: data<R.FileOperationResult[]>(),
  }),
  'GET /group/file/list': endpoint({
    no: '4.21', summary: 'Shared files of a group.', methods: ['GET'], path: '/group/file/list',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.SharedFile[]>(),
  }),
  'PUT /group/file/update_name': endpoint({
    no: '4.22', summary: 'Rename a shared file.', methods: ['PUT', 'POST'], path: '/group/file/update_name',
    body: obj({ file_id: int64, group_id: int64, name: str }), data: data<boolean>(),
  }),
  'POST /group/file/upload': endpoint({
    no: '4.23', summary: 'Record a shared file.', methods: ['POST'], path: '/group/file/upload',
    body: obj({ group_id: int64, name: str, size: int64, url: str, type: opt(str) }), data: data<R.SharedFile>(),
  }),
  'GET /group/info': endpoint({
    no: '4.24', summary: 'Group information.', methods: ['GET'], path: '/group/info',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.Group>(),
  }),
  'PUT /group/info/avatar': endpoint({
    no: '4.25', summary: 'Set the group avatar.', methods: ['PUT', 'POST'], path: '/group/info/avatar',
    body: groupValue(str), data: data<boolean>(),
  }),
  'POST /group/info/batch': endpoint({
    no: '4.26', summary: 'Summaries of several groups.', methods: ['POST'], path: '/group/info/batch',
    body: obj({ group_list: int64List }), effect: 'read', data: data<R.GroupSummary[]>(),
  }),
  'PUT /group/info/description': endpoint({
    no: '4.27', summary: 'Set the group description.', methods: ['PUT', 'POST'], path: '/group/info/description',
    body: groupValue(str), data: data<boolean>(),
  }),
  'PUT /group/info/ext': endpoint({
    no: '4.28', summary: 'Set the group extension information.', methods: ['PUT', 'POST'], path: '/group/info/ext',
    body: groupValue(str), data: data<boolean>(),
  }),
  'PUT /group/info/name': endpoint({
    no: '4.29', summary: 'Set the group name.', methods: ['PUT', 'POST'], path: '/group/info/name',
    body: groupValue(str), data: data<boolean>(),
  }),
  'GET /group/invitation_list': endpoint({
    no: '4.30', summary: "The acting user's group invitations.", methods: ['GET'], path: '/group/invitation_list',
    query: obj(pageQuery), extras: LIST_PAGE, data: data<R.GroupInvitation[]>(),
  }),
  'POST /group/invite': endpoint({
    no: '4.31', summary: 'Invite users to a group.', methods: ['POST'], path: '/group/invite',
    body: obj({ ...groupMembers, reason: opt(str) }), data: data<R.OperationResult[]>(),
  }),
  'PUT /group/invite/handle': endpoint({
    no: '4.32', summary: 'Accept or decline an invitation.', methods: ['PUT', 'POST'], path: '/group/invite/handle',
    body: obj({ approval: bool, group_id: int64, user_id: int64 }), data: data<boolean>(),
  }),
  'DELETE /group/kick': endpoint({
    no: '4.33', summary: 'Remove members from a group.', methods: ['DELETE', 'POST'], path: '/group/kick',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'DELETE /group/leave': endpoint({
    no: '4.34', summary: 'Leave a group.', methods: ['DELETE', 'POST'], path: '/group/leave',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<boolean>(),
  }),
  'GET /group/member_list': endpoint({
    no: '4.35', summary: 'Members of a group.', methods: ['GET'], path: '/group/member_list',
    query: obj({ group_id: int64, ...pageQuery }), groupIdHeader: false, extras: LIST_PAGE, data: data<R.Member[]>(),
  }),
  'POST /group/members/display_name': endpoint({
    no: '4.36', summary: 'Display names of members.', methods: ['POST'], path: '/group/members/display_name',
    body: obj(groupMembers), effect: 'read', data: data<R.Member[]>(),
  }),
  'PUT /group/msg/mute_mode': endpoint({
    no: '4.37', summary: "Set the acting member's message blocking mode.", methods: ['PUT', 'POST'],
    path: '/group/msg/mute_mode', body: obj({ group_id: int64, msg_mute_mode: int32Of(0, 1, 2) }),
    data: data<R.UnspecifiedObject>(),
  }),
  'PUT /group/msg/push_mode': endpoint({
    no: '4.38', summary: "Set the acting member's push mode.", methods: ['PUT', 'POST'], path: '/group/msg/push_mode',
    body: obj({ group_id: int64, msg_push_mode: int32In(0, 4) }), data: data<R.UnspecifiedObject>(),
  }),
  'GET /group/public_list': endpoint({
    no: '4.39', summary: 'Public groups (deprecated).', methods: ['GET'], path: '/group/public_list',
    data: data<Int64[]>(),
  }),
  'POST /group/qrcode/invite': endpoint({
    no: '4.40', summary: 'Join a group by QR code.', methods: ['POST'], path: '/group/qrcode/invite',
    body: obj({ qr_info: str }), data: data<R.UnspecifiedObject>(),
  }),
  'GET /group/qrcode/sign': endpoint({
    no: '4.41', summary: 'Sign a QR code invitation.', methods: ['GET'], path: '/group/qrcode/sign',
    query: obj({ group_id: int64 }), groupIdHeader: false, effect: 'issue', data: data<R.GroupQrCode>(),
  }),
  'GET /group/settings': endpoint({
    no: '4.42', summary: 'Group settings.', methods: ['GET'], path: '/group/settings',
    query: obj({ group_id: int64 }), groupIdHeader: false, data: data<R.Group>(),
  }),
  'PUT /group/settings/allow_member_invitation': endpoint({
    no: '4.43', summary: 'Allow members to invite others.', methods: ['PUT', 'POST'],
    path: '/group/settings/allow_member_invitation', body: groupValue(bool), data: data<boolean>(),
  }),
  'PUT /group/settings/allow_member_modify': endpoint({
    no: '4.44', summary: 'Allow members to modify group information.', methods: ['PUT', 'POST'],
    path: '/group/settings/allow_member_modify', body: groupValue(bool), data: data<boolean>(),
  }),
  'POST /group/settings/ban_all': endpoint({
    no: '4.45', summary: 'Let only admins send for a duration (minutes).', methods: ['POST'],
    path: '/group/settings/ban_all', body: obj({ duration: int64, group_id: int64 }),
    data: data<{ ban_expire_time: Int64 }>(),
  }),
  'PUT /group/settings/enable_read_ack': endpoint({
    no: '4.46', summary: 'Enable read receipts of group messages.', methods: ['PUT', 'POST'],
    path: '/group/settings/enable_read_ack', body: groupValue(bool), data: data<boolean>(),
  }),
  'PUT /group/settings/history_visible': endpoint({
    no: '4.47', summary: 'Let new members see history.', methods: ['PUT', 'POST'],
    path: '/group/settings/history_visible', body: groupValue(bool), data: data<boolean>(),
  }),
  'PUT /group/settings/require_admin_approval': endpoint({
    no: '4.48', summary: 'Set how membership applications are handled.', methods: ['PUT', 'POST'],
    path: '/group/settings/require_admin_approval', body: obj({ group_id: int64, apply_approval: int32Of(0, 1, 2) }),
    data: data<boolean>(),
  }),
  'POST /group/settings/unban_all': endpoint({
    no: '4.49', summary: 'End the group-wide ban.', methods: ['POST'], path: '/group/settings/unban_all',
    body: obj({ group_id: int64 }), data: data<boolean>(),
  }),
  'PUT /group/transfer': endpoint({
    no: '4.50', summary: 'Transfer ownership to a member.', methods: ['PUT', 'POST'], path: '/group/transfer',
    body: obj({ group_id: int64, new_owner: int64 }), data: data<R.OperationResult>(),
  }),
  'POST /group/unban': endpoint({
    no: '4.51', summary: 'Lift member bans.', methods: ['POST'], path: '/group/unban',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'DELETE /group/unblock': endpoint({
    no: '4.52', summary: 'Take users off the group blacklist.', methods: ['DELETE', 'POST'], path: '/group/unblock',
    body: obj(groupMembers), data: data<R.OperationResult[]>(),
  }),
  'GET /group/user_joined': endpoint({
    no: '4.53', summary: 'Groups the acting user has joined.', methods: ['GET'], path: '/group/user_joined',
    data: data<Int64[]>(),
  }),
} as const satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
