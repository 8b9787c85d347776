// The numeric and string codes of the spec as GraphQL enums. Each enum value's `value` is the
// code sent to or received from the REST service.
import { builder } from './builder';

type Values = Record<string, { value: number | string; description: string }>;

function codeEnum<const V extends Values>(name: string, description: string, values: V) {
  return builder.enumType(name, { description, values });
}

export const MessageType = codeEnum('MessageType', 'Kind of a message (content_type on send, ctype on read).', {
  TEXT: { value: 0, description: 'Plain text.' },
  IMAGE: { value: 1, description: 'An image; the attachment carries its URL and size.' },
  AUDIO: { value: 2, description: 'A voice message; the attachment carries its URL and duration.' },
  VIDEO: { value: 3, description: 'A video; the attachment carries its URL.' },
  FILE: { value: 4, description: 'A file; the attachment carries its URL, name and size.' },
  LOCATION: { value: 5, description: 'A location.' },
  COMMAND: { value: 6, description: 'A command for the app, not shown to the user.' },
  FORWARD: { value: 7, description: 'A forwarded message.' },
});

export const TargetType = codeEnum('TargetType', 'Whom a message or file goes to.', {
  USER: { value: 1, description: 'Users.' },
  GROUP: { value: 2, description: 'Groups.' },
});

export const MessageStatus = codeEnum('MessageStatus', 'Delivery state of a message, as the reader sees it.', {
  UNREAD: { value: 'UNREAD', description: 'Not yet delivered to the reader.' },
  DELIVERED: { value: 'DELIVERED', description: 'Delivered, not read.' },
  READ: { value: 'READ', description: 'Read (acknowledged).' },
});

export const AuthMode = codeEnum('AuthMode', 'How others may add the user as a friend.', {
  NONE: { value: 0, description: 'Anyone can add the user.' },
  CONSENT: { value: 1, description: 'The user must consent.' },
  QUESTION: { value: 2, description: 'The requester must answer the verification question.' },
  REJECT_ALL: { value: 3, description: 'All requests are rejected.' },
});

export const UserStatus = codeEnum('UserStatus', 'Account state.', {
  NORMAL: { value: 0, description: 'Normal.' },
  BANNED: { value: 1, description: 'Banned (disabled) by an administrator.' },
});

export const Platform = codeEnum('Platform', 'Platform of a device.', {
  IOS: { value: 1, description: 'iOS.' },
  ANDROID: { value: 2, description: 'Android.' },
  WINDOWS: { value: 3, description: 'Windows.' },
  MAC: { value: 4, description: 'macOS.' },
  LINUX: { value: 5, description: 'Linux.' },
  WEB: { value: 6, description: 'Web.' },
});

export const GroupType = codeEnum('GroupType', 'Kind of group.', {
  PRIVATE: { value: 0, description: 'A private group.' },
  CHATROOM: { value: 2, description: 'A chatroom.' },
});

export const GroupStatus = codeEnum('GroupStatus', 'Group state.', {
  NORMAL: { value: 0, description: 'Active.' },
  DISSOLVED: { value: 1, description: 'Dissolved.' },
});

export const ApplyApproval = codeEnum('ApplyApproval', 'How membership applications are handled.', {
  AGREE_ALL: { value: 0, description: 'Every application is accepted.' },
  ADMIN_CONFIRM: { value: 1, description: 'An admin must confirm each application.' },
  REJECT_ALL: { value: 2, description: 'Every application is rejected.' },
});

export const MsgMuteMode = codeEnum('MsgMuteMode', "How the acting member blocks the group's messages.", {
  NONE: { value: 0, description: 'No blocking.' },
  NO_NOTIFICATIONS: { value: 1, description: 'Block local notifications.' },
  BLOCK_MESSAGES: { value: 2, description: 'Block messages.' },
});

export const MsgPushMode = codeEnum('MsgPushMode', 'Which group messages are pushed to the acting member.', {
  ALL: { value: 0, description: 'All pushes.' },
  NONE: { value: 1, description: 'No pushes.' },
  ADMIN_AND_MENTIONS: { value: 2, description: 'Pushes from admins and @ mentions.' },
  ADMIN_ONLY: { value: 3, description: 'Pushes from admins only.' },
  MENTIONS_ONLY: { value: 4, description: '@ mention pushes only.' },
});

export const RequestStatus = codeEnum('RequestStatus', 'State of a group application or invitation.', {
  PENDING: { value: 0, description: 'Waiting for an answer.' },
  ACCEPTED: { value: 1, description: 'Agreed.' },
  REJECTED: { value: 2, description: 'Rejected.' },
});

export const PushProvider = codeEnum('PushProvider', 'A vendor push service.', {
  APNS: { value: 1, description: 'Apple Push Notification service.' },
  HUAWEI: { value: 2, description: 'Huawei.' },
  XIAOMI: { value: 3, description: 'Xiaomi.' },
  MEIZU: { value: 4, description: 'Meizu (Flyme).' },
  VIVO: { value: 5, description: 'VIVO.' },
  OPPO: { value: 6, description: 'OPPO.' },
  FCM: { value: 7, description: 'Firebase Cloud Messaging.' },
});

export const PushEnvironment = codeEnum('PushEnvironment', 'Environment of a push certificate.', {
  DEVELOPMENT: { value: 0, description: 'Development.' },
  PRODUCTION: { value: 1, description: 'Production.' },
});

export const PushChannel = codeEnum('PushChannel', 'A channel push statistics are counted for.', {
  APNS: { value: 'apns', description: 'Apple Push Notification service.' },
  FCM: { value: 'fcm', description: 'Firebase Cloud Messaging.' },
  FLYME: { value: 'flyme', description: 'Meizu Flyme.' },
  HUAWEI: { value: 'huawei', description: 'Huawei.' },
  NATIVEPUSH: { value: 'nativepush', description: "The service's own channel." },
  OPPO: { value: 'oppo', description: 'OPPO.' },
  VIVO: { value: 'vivo', description: 'VIVO.' },
  XIAOMI: { value: 'xiaomi', description: 'Xiaomi.' },
});

export const ChatFileType = codeEnum('ChatFileType', 'Kind of chat or shared file an upload target is for.', {
  CHAT_FILE: { value: 100, description: 'Plain chat file.' },
  CHAT_VOICE_AMR: { value: 101, description: 'Voice chat file (.amr).' },
  CHAT_IMAGE: { value: 102, description: 'Picture chat file.' },
  CHAT_VIDEO: { value: 103, description: 'Video chat file.' },
  CHAT_VOICE_MP3: { value: 104, description: 'Voice chat file (.mp3).' },
  SHARED_FILE: { value: 200, description: 'Shared plain file.' },
  SHARED_VOICE: { value: 201, description: 'Shared voice file.' },
  SHARED_IMAGE: { value: 202, description: 'Shared picture file.' },
  SHARED_VIDEO: { value: 203, description: 'Shared video file.' },
});
