// The three queries the peers race on (bench/peers.ts) and the soak mixes (bench/soak.ts): how each
// peer is asked, and how its answer is checked.
import type { EmulatorSetup } from './query-emulator';
import type { Request } from './wrk';

export type PeerName = 'gateway' | 'tailcall' | 'rest';

interface Case {
  label: string;
  /** How each peer is asked; a peer without an entry sits the case out. */
  requests: Partial<Record<PeerName, Request>>;
  /** A reason the answer is wrong, or undefined. */
  check(peer: PeerName, body: string): string | undefined;
}

export const graphql = (query: string): Request => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }) });

export function cases(setup: EmulatorSetup): Case[] {
  const parsed = (body: string) => JSON.parse(body) as { data?: Record<string, unknown>; errors?: unknown };
  const errorsOf = (body: string) => {
    const reply = parsed(body);
    return reply.errors ? JSON.stringify(reply.errors).slice(0, 300) : undefined;
  };
  return [
    {
      label: 'me { id username nickName } (1 REST call)',
      requests: {
        gateway: graphql('{ me { id username nickName } }'),
        tailcall: graphql('{ me { id username nickName } }'),
        rest: { method: 'GET', path: '/user/profile' },
      },
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
      check: (peer, body) => {
        const group = parsed(body).data?.group as { members?: { nodes?: unknown[] } | unknown[] } | undefined;
        const members = peer === 'gateway' ? (group?.members as { nodes?: unknown[] } | undefined)?.nodes : group?.members;
        const users = Array.isArray(members)
          ? members.filter((m) => typeof (m as { user?: { nickName?: unknown } }).user?.nickName === 'string')
          : [];
        return (
          errorsOf(body) ??
          (users.length === setup.midGroupSize ? undefined : `not ${setup.midGroupSize} members with a nickName: ${body.slice(0, 200)}`)
        );
      },
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
