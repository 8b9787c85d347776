// 1.9, 1.11, 1.13: banning, unbanning and listing users (admin token only, checked by the core).
//
// Choices where the spec is silent:
// - A ban list naming an unknown user fails whole with 10000 naming it, and nothing changes: a
//   partial ban would leave the caller guessing which users it reached. An empty list is 10002.
// - A ban suspends: the user gets no new token (/token/* answer 10010) and its live tokens are
//   refused with 10010 "user is banned" while banned; an unban lets those tokens work again.
// - page_size above 200 (the real service's maximum) is refused with 10002 rather than cut
//   down silently, so a client paging by "fewer than page_size means last page" cannot stop early.
import type { Int64 } from '../../rest/json';
import type { UserListElement } from '../../rest/records';
import { invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import type { State } from '../state';
import type { UserRecord } from './model';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

function setStatus(state: State, ids: Int64[], status: UserRecord['status']): true {
  if (ids.length === 0) throw invalidParam('list', 'must not be empty');
  // Every ID is checked before any status changes.
  const users = ids.map((id) => state.users.require(id));
  for (const user of users) user.status = status;
  return true;
}

export const adminHandlers: HandlerMap = {
  'PUT /user/disable': (p, ctx) => setStatus(ctx.state, p.list, 1),
  'PUT /user/enable': (p, ctx) => setStatus(ctx.state, p.list, 0),

  'GET /user/list': (p, ctx) => {
    const pageNum = p.page_num ?? 1;
    const pageSize = p.page_size ?? DEFAULT_PAGE_SIZE;
    if (pageSize > MAX_PAGE_SIZE) throw invalidParam('page_size', `expected at most ${MAX_PAGE_SIZE}`);
    const sorted = [...ctx.state.users.all()].sort((a, b) => a.id - b.id);
    return sorted
      .slice((pageNum - 1) * pageSize, pageNum * pageSize)
      .map((u): UserListElement => ({ status: u.status, user_id: u.id, username: u.username }));
  },
};
