// Group codes of the spec as GraphQL enums; each value's `value` is the code the REST service uses.
import { builder } from '../core/builder';
import { codeEnum } from '../core/code-enum';

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

export const MemberRole = builder.enumType('MemberRole', {
  description: "A member's role in its group.",
  values: {
    OWNER: { description: 'The owner (Group.owner).' },
    ADMIN: { description: 'An admin (Group.admins).' },
    MEMBER: { description: 'A member without a role.' },
  } as const,
});
