// The fewest REST round trips one after another each operation of bench:latency can take, warm
// (the gateway's 5 s caches hold the peers' profiles and the caller's proof) and cold: what its
// data needs, whatever the gateway does. The table of record is test/helpers/screen-depths.ts
// (with each reason; test/schema/depth.test.ts holds the gateway to it); the entries below serve
// the operations it does not list, and were the bench's own before it came.
import { SCREEN_DEPTHS } from '../test/helpers/screen-depths';

export interface MinimalDepth {
  warm: number;
  cold: number;
  why: string;
}

/** The minimal depth of a bench operation ('Refetch user' is Refetch's User variant; ' (admin)' is dropped). */
export function minimalDepthOf(name: string): MinimalDepth | undefined {
  const [operation, variant] = name.replace(/ \(admin\)$/, '').split(' ');
  const recorded = SCREEN_DEPTHS.find(
    (d) => d.operation === operation && (variant === undefined || d.variant?.toLowerCase() === variant.toLowerCase()),
  );
  return recorded ? { warm: recorded.warm, cold: recorded.cold, why: recorded.reason } : minimalDepths[name];
}

// The caller's proof (its own profile, read with its token) needs the token alone: at depth 1
// beside the first reads wherever a screen reads other users, never after them.
const minimalDepths: Record<string, MinimalDepth> = {
  Me: { warm: 1, cold: 1, why: 'profile, settings and devices need the token alone' },
  ChatHome: {
    warm: 2,
    cold: 2,
    why: 'the unread list and joined groups (token alone), then per row its last message, peer profile and online flag, group summaries (IDs from the lists)',
  },
  Conversation: {
    warm: 1,
    cold: 2,
    why: "the page of messages (token and `with`); cold, the senders' profiles need their IDs from the page",
  },
  GroupScreen: {
    warm: 1,
    cold: 2,
    why: "summary, latest announcement, member page, unread list and admin list need the group ID alone; cold, the members' profiles need their IDs from the page",
  },
  GroupActions: { warm: 1, cold: 1, why: 'summary, proof, joined groups, admin list and settings each need the group ID and token alone' },
  'Refetch user': { warm: 1, cold: 1, why: 'a bare ID tried as a group and as a user at once; the proof beside them' },
  'Refetch conversation': {
    warm: 1,
    cold: 1,
    why: 'the global ID names the peer: the unread list, joined groups and the last message need nothing else',
  },
  'Users (admin)': { warm: 1, cold: 2, why: 'the page of users; cold, their profiles need the IDs from the page' },
  ChatFileDownload: { warm: 0, cold: 0, why: 'a URL made by the gateway, no call' },
  LogIn: { warm: 2, cold: 2, why: 'the token, then the profile read with it' },
  SetNickname: { warm: 2, cold: 2, why: 'the write, then the profile read after it (read your write)' },
  SendText: { warm: 2, cold: 2, why: 'the send, then the conversation and its row read after it' },
  MarkRead: { warm: 2, cold: 2, why: 'the read receipt, then the row read after it' },
  CreateGroup: { warm: 1, cold: 1, why: 'the create answers the group' },
  KickMembers: { warm: 2, cold: 2, why: 'the kick, then the member list read after it' },
  'DisableUsers (admin)': { warm: 2, cold: 2, why: 'the ban, then the user list read after it' },
};
