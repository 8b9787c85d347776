// friendRequestReceived: the friend requests the caller receives, found by polling the first page
// of GET /roster/apply/list (newest first) and keeping the pending ones the rounds before did not
// see. An application has no ID of its own (it is named by its applicant) nor a time of applying,
// but its expiry is that time plus one fixed lifetime, so the expiry orders requests by arrival; an
// applicant who applies again renews it (a new arrival). The state, which is also the position a
// subscriber resumes from, is "<newest expiry>:<applicants at that expiry>" (several may share a
// millisecond); a request's own cursor is the same text with its one applicant.
//
// The first round only sets the state and publishes a `baseline` marker (resume.ts reads up to it).
// When a whole page is new, older pages are read, up to MAX_PAGES; beyond, the round is incomplete.
import { GatewayError } from '../rest/errors';
import type { FriendApplication } from '../rest/records';
import type { Source, StreamCursor } from './source';

export type FriendRequestEvent =
  | { kind: 'received'; request: FriendApplication }
  /** The poll's first round: it reports what comes after `position`. Not for subscribers. */
  | { kind: 'baseline'; position: string };

const PAGE = 100;
const MAX_PAGES = 5;
/** The most applications one round (or a resume) reads. */
export const MAX_READ = PAGE * MAX_PAGES;
/** Status of an application that waits for an answer (8.4). */
export const PENDING = 0;

interface Position {
  at: bigint;
  ids: string[];
}

const CURSOR = /^(\d{1,19}):((?:\d{1,19})(?:,\d{1,19})*)?$/;

function parse(text: string): Position {
  const m = CURSOR.exec(text);
  if (!m)
    throw new GatewayError('after: not a friend request cursor (the `cursor` of a FriendRequestReceived).', 'BAD_USER_INPUT', 'after');
  return { at: BigInt(m[1]!), ids: m[2] ? m[2].split(',') : [] };
}

const format = ({ at, ids }: Position) => `${at}:${ids.join(',')}`;

/** A request's cursor: where a subscription resumes after it. */
export const requestCursor = (a: FriendApplication): string => `${String(a.expired_time)}:${String(a.user_id)}`;

/** Checks a cursor a client sent (BAD_USER_INPUT naming `after` when it is none). */
export function checkedCursor(text: string): string {
  return format(parse(text));
}

/** Whether the application arrived after `p`. */
function isNew(a: FriendApplication, p: Position): boolean {
  const at = BigInt(a.expired_time);
  return at > p.at || (at === p.at && !p.ids.includes(String(a.user_id)));
}

/** `p` moved past the applications (oldest first). */
function advance(p: Position, seen: readonly FriendApplication[]): Position {
  let { at, ids } = p;
  for (const a of seen) {
    const t = BigInt(a.expired_time);
    if (t > at) [at, ids] = [t, [String(a.user_id)]];
    else if (t === at && !ids.includes(String(a.user_id))) ids = [...ids, String(a.user_id)];
  }
  return { at, ids };
}

/** The position after `position` and the request received. */
export const positionAfter = (position: string, request: FriendApplication): string => format(advance(parse(position), [request]));

/** Whether the request arrived after the position. */
export const arrivedAfter = (request: FriendApplication, position: string): boolean => isNew(request, parse(position));

/** Orders positions: by newest expiry, then by how many applicants share it (a later state knows more). */
export function comparePositions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  return x.at !== y.at ? (x.at < y.at ? -1 : 1) : Math.sign(x.ids.length - y.ids.length);
}

type Rest = Parameters<Source<unknown>['poll']>[0];
type Caller = Parameters<Source<unknown>['poll']>[1];

interface Arrivals {
  /** The applications that arrived after the position, any status, oldest first. */
  news: FriendApplication[];
  /** The newest page's applications when nothing was known (the first round's view). */
  newest: FriendApplication[];
  /** Whether MAX_PAGES did not reach the position. */
  incomplete: boolean;
}

/** Reads the applications received after `from` (undefined: only the newest page). */
export async function readArrivals(rest: Rest, caller: Caller, from: string | undefined, signal?: AbortSignal): Promise<Arrivals> {
  const known = from === undefined ? undefined : parse(from);
  const news: FriendApplication[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const reply = await rest.call(
      'GET /roster/apply/list',
      { limit: PAGE, ...(cursor ? { cursor } : {}) },
      caller,
      signal ? { signal } : {},
    );
    if (known === undefined) return { news: [], newest: [...reply.data].reverse(), incomplete: false };
    const fresh = reply.data.filter((a) => isNew(a, known));
    news.push(...fresh);
    // Newest first: an older one than the position ends the new ones.
    if (fresh.length < reply.data.length || !reply.cursor || reply.data.length === 0) break;
    if (pages >= MAX_PAGES) return { news: news.reverse(), newest: [], incomplete: true };
    cursor = reply.cursor;
  }
  return { news: news.reverse(), newest: [], incomplete: false };
}

const pending = (news: readonly FriendApplication[]) => news.filter((a) => a.status === PENDING);

const received = (requests: readonly FriendApplication[]): FriendRequestEvent[] =>
  requests.map((request) => ({ kind: 'received', request }));

const cursor: StreamCursor<FriendRequestEvent[]> = {
  compare: comparePositions,
  after(events, position) {
    const news = events.filter((e) => e.kind === 'received' && arrivedAfter(e.request, position));
    return news.length > 0 ? news : undefined;
  },
};

export const friendRequestSource: Source<FriendRequestEvent[]> = {
  name: 'friend-requests',
  replay: false,
  cursor,
  async poll(rest, caller, state, signal) {
    const { news, newest, incomplete } = await readArrivals(rest, caller, state, signal);
    if (state === undefined) {
      const position = format(advance({ at: 0n, ids: [] }, newest));
      return { state: position, payload: [{ kind: 'baseline', position }] };
    }
    if (news.length === 0) return { state };
    const next = format(advance(parse(state), news));
    const requests = pending(news);
    return { state: next, ...(requests.length ? { payload: received(requests) } : {}), ...(incomplete ? { incomplete } : {}) };
  },
};
