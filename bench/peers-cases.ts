// The three queries the peers race on (bench/peers.ts) and the soak mixes (bench/soak.ts): how each
// peer is asked, and how its answer is checked.
import type { EmulatorSetup } from './query-emulator';
import type { Request } from './wrk';

/** `node`, `jit` and `yoga` are floors (bench/floors.ts): they answer the `me` case only, from a constant. */
export type PeerName = 'gateway' | 'tailcall' | 'rest' | 'node' | 'jit' | 'yoga';

interface Case {
  label: string;
  /**
   * How each peer is asked; a peer without an entry sits the case out. A list is sent in turn (no
   * two concurrent requests alike), each request with its own identity headers.
   */
  requests: Partial<Record<PeerName, Request | Request[]>>;
  /** The case whose Tailcall row this one is compared with, when Tailcall cannot run it itself. */
  comparedWith?: string;
  /** A reason the answer is wrong, or undefined. */
  check(peer: PeerName, body: string): string | undefined;
}

export const graphql = (query: string): Request => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });

/** A peer's requests of a case as a list. */
export const requestsOf = (r: Request | Request[]): Request[] => (Array.isArray(r) ? r : [r]);

const VARIED_ADMIN = 'varied: 32 groups × 10 distinct members, admin token + owner user_id';

export function cases(setup: EmulatorSetup): Case[] {
  const parsed = (body: string) => JSON.parse(body) as { data?: Record<string, unknown>; errors?: unknown };
  const errorsOf = (body: string) => {
    const reply = parsed(body);
    return reply.errors ? JSON.stringify(reply.errors).slice(0, 300) : undefined;
  };
  const json = { 'content-type': 'application/json' };
  const admin = (ownerId: number) => ({ app_id: setup.appId, 'access-token': setup.adminToken, user_id: String(ownerId), ...json });
  const user = (token: string) => ({ app_id: setup.appId, 'access-token': token, ...json });
  const size = setup.variedGroupSize;
  const gatewayGroup = (id: number) => `{ group(id: "${id}") { members(first: ${size}) { nodes { user { nickName } } } } }`;
  const tailcallGroup = (id: number) => `{ group(id: ${id}) { members { user { nickName } } } }`;
  /** The answer holds the group's members, each with a nickName. */
  const membersNamed = (count: number) => (peer: PeerName, body: string) => {
    const group = parsed(body).data?.group as { members?: { nodes?: unknown[] } | unknown[] } | undefined;
    const members = peer === 'gateway' ? (group?.members as { nodes?: unknown[] } | undefined)?.nodes : group?.members;
    const users = Array.isArray(members)
      ? members.filter((m) => typeof (m as { user?: { nickName?: unknown } }).user?.nickName === 'string')
      : [];
    return errorsOf(body) ?? (users.length === count ? undefined : `not ${count} members with a nickName: ${body.slice(0, 200)}`);
  };
  const me = graphql('{ me { id username nickName } }');
  return [
    {
      label: 'me { id username nickName } (1 REST call)',
      requests: { gateway: me, tailcall: me, rest: { method: 'GET', path: '/user/profile' }, node: me, jit: me, yoga: me },
      check: (peer, body) => {
        if (peer === 'rest') return body.includes('"username":"bench-owner"') ? undefined : body.slice(0, 200);
        return (
          errorsOf(body) ??
          ((parsed(body).data?.me as { username?: string } | undefined)?.username === 'bench-owner' ? undefined : body.slice(0, 200))
        );
      },
    },
    {
      label: `group's ${setup.midGroupSize} members' nickName (1 + ${setup.midGroupSize} calls, +1 existence read)`,
      requests: {
        gateway: graphql(`{ group(id: "${setup.midGroupId}") { members(first: ${setup.midGroupSize}) { nodes { user { nickName } } } } }`),
        tailcall: graphql(`{ group(id: ${setup.midGroupId}) { members { user { nickName } } } }`),
      },
      check: membersNamed(setup.midGroupSize),
    },
    {
      label: 'me { joinedGroups { name } } (50 groups)',
      requests: {
        gateway: graphql('{ me { joinedGroups(first: 50) { nodes { name } } } }'),
        tailcall: graphql('{ me { joinedGroups { name } } }'),
      },
      check: (peer, body) => {
        const joined = (parsed(body).data?.me as { joinedGroups?: unknown } | undefined)?.joinedGroups;
        const groups = (peer === 'gateway' ? (joined as { nodes?: unknown } | undefined)?.nodes : joined) as
          { name?: unknown }[] | undefined;
        const named = Array.isArray(groups) ? groups.filter((g) => typeof g.name === 'string' && g.name.startsWith('bench ')) : [];
        return errorsOf(body) ?? (named.length === 50 ? undefined : `not 50 named groups: ${body.slice(0, 200)}`);
      },
    },
    {
      label: VARIED_ADMIN,
      requests: {
        gateway: setup.varied.map((g) => ({ ...graphql(gatewayGroup(g.groupId)), headers: admin(g.ownerId) })),
        tailcall: setup.varied.map((g) => ({ ...graphql(tailcallGroup(g.groupId)), headers: admin(g.ownerId) })),
      },
      check: membersNamed(size),
    },
    {
      label: "varied: the same 32 groups, each owner's user token (peer path)",
      requests: {
        gateway: setup.varied.map((g) => ({ ...graphql(gatewayGroup(g.groupId)), headers: user(g.ownerToken) })),
      },
      // Tailcall forwards a user token as it is: the service refuses it other users' profiles.
      comparedWith: VARIED_ADMIN,
      check: membersNamed(size),
    },
  ];
}

/**
 * A page of 50 messages of history, the gateway alone (bench/peers.ts adds it): the answer that
 * compression is for (9.8 KB of JSON), measured with and without it (BENCH_ACCEPT_ENCODING).
 */
export function historyCase(setup: EmulatorSetup): Case {
  const query = `{ me { conversation(with: "${setup.historyWith}", last: ${setup.historySize}) { edges { cursor node { id content sentAt status from { id } } } pageInfo { startCursor hasPreviousPage } } } }`;
  return {
    label: `a page of ${setup.historySize} messages (1 REST call, ~9.8 KB)`,
    requests: { gateway: graphql(query) },
    check: (_peer, body) => {
      const reply = JSON.parse(body) as { data?: { me?: { conversation?: { edges?: unknown[] } } }; errors?: unknown };
      const edges = reply.data?.me?.conversation?.edges;
      return edges?.length === setup.historySize ? undefined : `not ${setup.historySize} messages: ${body.slice(0, 300)}`;
    },
  };
}
