// The fewest REST round trips one after another (the depth) each example operation's data allows,
// with the gateway's caches filled (warm: the same request again within PEER_TTL_MS), empty (cold)
// and expired with the caller's token still proven (proven: within PROOF_TTL_MS, no proof round),
// and why no fewer. test/schema/depth.test.ts holds the gateway to it (measured <= minimal)
// and bench:latency prints it beside what it measures.
//
// What the reasons lean on: the caller's proof (its own profile read with its own token) goes out
// beside the first reads, and a read through the service credential only once it is answered (the
// trust model: no credential read for an unproven caller), so cold, another user's profile is in
// round two at the earliest; a list's rows are known only after the list is read, so
// whatever a row needs (a peer's profile, a member's role) is one round after it; the service has
// no call answering a list with its rows' details.

export interface ScreenDepth {
  /** The operation's name in examples/*.graphql. */
  operation: string;
  /** Which variant of the operation (the kind of ID a Refetch is given), when there are several. */
  variant?: string;
  /** The fewest round trips with the caches filled. */
  warm: number;
  /** The fewest round trips with nothing remembered (a gateway started afresh). */
  cold: number;
  /**
   * The fewest round trips with the caller's token proven within PROOF_TTL_MS (rest/proven-tokens.ts)
   * and the 5 s caches expired: no proof round before the credential's reads.
   */
  proven: number;
  /** Why no fewer. */
  reason: string;
  /** The depth the gateway still takes where it is above the minimal (issue 34 open): the test holds it to this. */
  today?: { warm: number; cold: number; proven: number };
}

export const SCREEN_DEPTHS: readonly ScreenDepth[] = [
  {
    operation: 'Me',
    warm: 1,
    cold: 1,
    proven: 1,
    reason: "profile, settings and devices each need only the caller's token: one round",
  },
  {
    operation: 'ChatHome',
    warm: 2,
    cold: 2,
    proven: 2,
    reason:
      'the conversation list (unread and joined groups, the caller proved beside them), then per row its last message and its peer (profile and online, or group info): the rows are known only from the list',
  },
  {
    operation: 'Conversation',
    warm: 1,
    cold: 2,
    proven: 2,
    reason: "the messages (the proof beside them); cold, then the senders' profiles, known only from the messages",
  },
  {
    operation: 'GroupScreen',
    warm: 1,
    cold: 2,
    proven: 2,
    reason:
      "group info, unread count, announcement, member page and admin list (for the roles) need only the group ID: one round; cold, then the members' profiles, known only from the page",
  },
  {
    operation: 'GroupActions',
    warm: 1,
    cold: 1,
    proven: 1,
    reason:
      "the group, the caller's joined groups, the admin list and the settings need only the group ID and the token (the proof beside them): one round",
  },
  {
    operation: 'Refetch',
    variant: 'User',
    warm: 1,
    cold: 2,
    proven: 1,
    reason:
      "a bare ID tried as a group and as a user at once; cold, the user's profile through the credential waits for the caller's proof (trust model), which goes out in the first round; proven, it goes at once",
  },
  {
    operation: 'Refetch',
    variant: 'Conversation',
    warm: 1,
    cold: 1,
    proven: 1,
    reason:
      'the conversation list and the last message with the ID the global ID names: one round (the message read is speculative: the row may not be listed)',
  },
  {
    operation: 'Refetch',
    variant: 'Message',
    warm: 1,
    cold: 1,
    proven: 1,
    reason: 'one read of the conversation at the message',
  },
  {
    operation: 'Refetch',
    variant: 'Member',
    warm: 1,
    cold: 2,
    proven: 1,
    reason:
      "the member record, the group summary and the admin list (for the role) need only the global ID: one round; cold, then the member's profile through the credential, after the caller's proof (trust model); proven, the profile goes beside them (its user ID is in the global ID)",
  },
  {
    operation: 'Users',
    warm: 1,
    cold: 2,
    proven: 2,
    reason: "the admin user list; cold, then the listed users' profiles, known only from the list",
  },
  {
    operation: 'ChatFileDownload',
    warm: 0,
    cold: 0,
    proven: 0,
    reason: 'the URL is made from the file key alone: no call',
  },
  {
    operation: 'SetNickname',
    warm: 2,
    cold: 2,
    proven: 2,
    reason: 'the write, then the profile read back after it',
  },
  {
    operation: 'SendText',
    warm: 2,
    cold: 2,
    proven: 2,
    reason: 'the send, then the conversation row read back after it',
  },
  {
    operation: 'MarkRead',
    warm: 2,
    cold: 2,
    proven: 2,
    reason: 'the read mark, then the unread count read back after it',
  },
  {
    operation: 'LogIn',
    warm: 2,
    cold: 2,
    proven: 2,
    reason: 'the sign-in, then the profile read with the token it issued',
  },
];

/** The depths a row gives. */
export type Depths = 'warm' | 'cold' | 'proven';

/** The row's label: the operation and its variant. */
export const screenLabel = (s: ScreenDepth): string => (s.variant ? `${s.operation} (${s.variant})` : s.operation);
