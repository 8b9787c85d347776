// Who a request acts as, resolved from the access-token, user_id and group_id headers.
import { Code, ImError } from '../errors';
import type { EmulatorOptions } from '../options';
import type { UserDirectory } from '../users/directory';
import type { UserRecord } from '../users/model';
import type { TokenStore } from './tokens';

export interface Actor {
  /** Called with the admin token. */
  readonly admin: boolean;
  /** The acting user: the token's owner, or the user_id header with the admin token. */
  readonly userId?: number;
  /** Admin token + group_id header: acting as an admin of this group. */
  readonly groupId?: number;
  /** Device of the user token, when it was issued for one. */
  readonly deviceSn?: number;
}

/** What resolving an actor reads (the State: ../state.ts). */
interface ActorRoot {
  readonly options: EmulatorOptions;
  readonly tokens: TokenStore;
  readonly users: UserDirectory;
  readonly clock: () => number;
}

const ANONYMOUS: Actor = { admin: false };

interface IdentityHeaders {
  token?: string;
  userId?: string;
  groupId?: string;
}

const ID = /^\d{1,19}$/;

function headerId(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!ID.test(raw)) throw new ImError(Code.INVALID_PARAMETER, `invalid header ${name}: expected an int64 integer`);
  return Number(raw);
}

/**
 * Resolves the actor. `required`: 'none' lets a request without token through (registration,
 * tokens), 'token' needs a valid token, 'admin' needs the admin token.
 */
export function resolveActor(state: ActorRoot, headers: IdentityHeaders, required: 'none' | 'token' | 'admin'): Actor {
  const userId = headerId('user_id', headers.userId);
  const groupId = headerId('group_id', headers.groupId);
  const token = headers.token;
  if (token === undefined || token === '') {
    if (required === 'none') return ANONYMOUS;
    throw new ImError(Code.TOKEN_MISSING, 'access-token header missing');
  }
  if (token === state.options.adminToken || state.options.otherAdminTokens?.includes(token)) {
    return { admin: true, ...(userId === undefined ? {} : { userId }), ...(groupId === undefined ? {} : { groupId }) };
  }
  const grant = state.tokens.get(token);
  if (!grant) {
    if (required === 'none') return ANONYMOUS;
    throw new ImError(Code.TOKEN_INVALID, 'access-token invalid');
  }
  if (grant.expire <= state.clock()) throw new ImError(Code.TOKEN_EXPIRED, 'access-token expired');
  const user = state.users.get(grant.userId);
  if (!user) throw new ImError(Code.TOKEN_INVALID, 'access-token invalid: its user no longer exists');
  if (user.status === 1) throw new ImError(Code.NO_PERMISSION, 'user is banned');
  if (userId !== undefined && userId !== grant.userId) {
    throw new ImError(Code.NO_PERMISSION, 'the user_id header takes effect only with an admin token');
  }
  if (required === 'admin') throw new ImError(Code.NO_PERMISSION, 'this operation needs an admin token');
  return { admin: false, userId: grant.userId, ...(grant.deviceSn === undefined ? {} : { deviceSn: grant.deviceSn }) };
}

/** The acting user, or a clear refusal: with the admin token the user_id header names it. */
export function actingUser(state: { readonly users: UserDirectory }, actor: Actor): UserRecord {
  if (actor.userId === undefined) {
    throw new ImError(
      Code.INVALID_PARAMETER,
      'invalid header user_id: this operation acts as a user; with the admin token, set the user_id header',
    );
  }
  return state.users.require(actor.userId);
}
