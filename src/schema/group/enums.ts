// Group enums, declared as every enum is (see user/enums.ts); MemberRole is the gateway's own, its
// values its names.
import { builder } from '../core/builder';

export const GroupType = builder.enumType('GroupType', {
  description: 'Kind of group.',
  values: {
    PRIVATE: { value: 0, description: 'A private group.' },
    CHATROOM: { value: 2, description: 'A chatroom.' },
  },
});

export const GroupStatus = builder.enumType('GroupStatus', {
  description: 'Group state.',
  values: {
    NORMAL: { value: 0, description: 'Active.' },
    DISSOLVED: { value: 1, description: 'Dissolved.' },
  },
});

export const ApplyApproval = builder.enumType('ApplyApproval', {
  description: 'How membership applications are handled.',
  values: {
    AGREE_ALL: { value: 0, description: 'Every application is accepted.' },
    ADMIN_CONFIRM: { value: 1, description: 'An admin must confirm each application.' },
    REJECT_ALL: { value: 2, description: 'Every application is rejected.' },
  },
});

export const MsgMuteMode = builder.enumType('MsgMuteMode', {
  description: "How the acting member blocks the group's messages.",
  values: {
    NONE: { value: 0, description: 'No blocking.' },
    NO_NOTIFICATIONS: { value: 1, description: 'Block local notifications.' },
    BLOCK_MESSAGES: { value: 2, description: 'Block messages.' },
  },
});

export const MsgPushMode = builder.enumType('MsgPushMode', {
  description: 'Which group messages are pushed to the acting member.',
  values: {
    ALL: { value: 0, description: 'All pushes.' },
    NONE: { value: 1, description: 'No pushes.' },
    ADMIN_AND_MENTIONS: { value: 2, description: 'Pushes from admins and @ mentions.' },
    ADMIN_ONLY: { value: 3, description: 'Pushes from admins only.' },
    MENTIONS_ONLY: { value: 4, description: '@ mention pushes only.' },
  },
});

export const RequestStatus = builder.enumType('RequestStatus', {
  description: 'State of a group application or invitation.',
  values: {
    PENDING: { value: 0, description: 'Waiting for an answer.' },
    ACCEPTED: { value: 1, description: 'Agreed.' },
    REJECTED: { value: 2, description: 'Rejected.' },
  },
});

export const MemberRole = builder.enumType('MemberRole', {
  description: "A member's role in its group.",
  values: {
    OWNER: { value: 'OWNER', description: 'The owner (Group.owner).' },
    ADMIN: { value: 'ADMIN', description: 'An admin (Group.admins).' },
    MEMBER: { value: 'MEMBER', description: 'A member without a role.' },
  },
});
