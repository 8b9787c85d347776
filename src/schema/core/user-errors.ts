// Business refusals a client can act on (a taken name, not a member, a wrong password) are data
// of a mutation's payload (`userErrors`), not GraphQL errors. This file says which upstream
// codes are such refusals; every other failure stays a GraphQL error (upstream-errors.ts).
import { builder } from './builder';
import { upstreamCause } from './upstream-errors';

const CODES = {
  NAME_TAKEN: 'The name is taken by another user.',
  ALREADY_MEMBER: 'The user is already a member of the group.',
  NOT_A_MEMBER: 'A user the input names is not a member of the group.',
  OWNER_CANNOT_LEAVE: 'The owner cannot leave the group: transfer it first.',
  GROUP_FULL: 'The group has reached its capacity.',
  BLOCKED: "The user is on a blacklist: the group's, or (friends) one of the two users' own.",
  NO_LONGER_PENDING: 'The application or invitation has expired or was already handled.',
  INVALID_QR_CODE: 'The QR code is invalid or has expired.',
  UNAUTHENTICATED: 'The user name or password is wrong.',
  NOT_GROUP_MEMBER: 'Only a member of the group may do this (the acting user is not one).',
  NOT_GROUP_ADMIN: 'Only an admin or the owner of the group may do this.',
  NOT_GROUP_OWNER: 'Only the owner of the group may do this.',
  CANNOT_REQUEST_SELF: 'A friend request names the acting user itself.',
  ALREADY_FRIENDS: 'The user is already a friend.',
  NOT_FRIENDS: 'The user is not a friend of the acting user.',
  WRONG_ANSWER: "The answer to the user's question (User.authQuestion) is missing or wrong.",
  REQUESTS_REFUSED: 'The user refuses every friend request.',
  TOO_MANY_PINS: 'The user has pinned as many conversations as the service keeps: unpin one first.',
  MESSAGE_NOT_FOUND: 'The message is not in the conversation as the acting user sees it, or cannot be changed (an edit itself).',
  NOT_YOUR_MESSAGE: 'Only the sender of a message may change it.',
  MUTED:
    'The acting user may not speak in the group now: banned there (until the ban ends), or the group is muted for members below admin.',
  NOT_ALLOWED: 'The service does not allow this, for a reason without a finer code here: message gives its words.',
  TOO_LARGE:
    'The write would build an upstream request over the bound the gateway sends (message gives the figures): fewer recipients or a shorter text.',
} as const;

export type UserErrorCodeName = keyof typeof CODES;

export const UserErrorCode = builder.enumType('UserErrorCode', {
  description: 'Why the service refused a mutation, in a way the client can act on.',
  values: Object.fromEntries(Object.entries(CODES).map(([name, description]) => [name, { value: name, description }])) as {
    [K in UserErrorCodeName]: { value: K; description: string };
  },
});

export interface UserErrorShape {
  /** The path of the input field at fault, from the mutation's arguments (["input", "username"]). */
  field: readonly string[] | null;
  code: UserErrorCodeName;
  message: string;
}

export const UserErrorRef = builder.objectRef<UserErrorShape>('UserError').implement({
  description: 'A refusal of the service the client can act on; the mutation changed nothing for it.',
  fields: (t) => ({
    field: t.stringList({
      description: 'Path of the input field at fault, from the argument (for example ["input", "username"]); null when no one field is.',
      resolve: (e) => (e.field ? [...e.field] : null),
    }),
    code: t.field({ type: UserErrorCode, nullable: false, description: 'What kind of refusal.', resolve: (e) => e.code }),
    message: t.exposeString('message', { nullable: false, description: "The service's words." }),
  }),
});

/**
 * Upstream codes that are refusals for every mutation (spec/upstream-notes.md), the group rank
 * rules (20011-20013) among them: a UI can act on those (the flags Group.viewerCan… say them
 * before). Authentication, not-found and invalid-parameter codes are not: they stay GraphQL errors.
 */
const REFUSALS: ReadonlyMap<number, UserErrorCodeName> = new Map<number, UserErrorCodeName>([
  [10004, 'NAME_TAKEN'],
  // A personal blacklist between the two users (document 4): a message, a friend request, a block.
  [10006, 'BLOCKED'],
  [20002, 'NOT_A_MEMBER'],
  [20004, 'OWNER_CANNOT_LEAVE'],
  [20005, 'NOT_A_MEMBER'],
  [20010, 'GROUP_FULL'],
  [20011, 'NOT_GROUP_MEMBER'],
  [20012, 'NOT_GROUP_ADMIN'],
  [20013, 'NOT_GROUP_OWNER'],
  [20014, 'NO_LONGER_PENDING'],
  [20015, 'NO_LONGER_PENDING'],
  [20017, 'ALREADY_MEMBER'],
  [20018, 'BLOCKED'],
  [20024, 'INVALID_QR_CODE'],
  [20025, 'INVALID_QR_CODE'],
]);

/**
 * A batch entry's refusal: the service answers only a reason text per entry (spec 4, operation
 * result), so known phrases give the finer code; any other failure is NOT_ALLOWED with its words.
 */
const ENTRY_PHRASES: readonly (readonly [RegExp, UserErrorCodeName])[] = [
  [/already a member/i, 'ALREADY_MEMBER'],
  [/blacklist/i, 'BLOCKED'],
  [/\bfull\b|capacity/i, 'GROUP_FULL'],
  [/not a member/i, 'NOT_A_MEMBER'],
  [/only the owner/i, 'NOT_GROUP_OWNER'],
  [/only an admin/i, 'NOT_GROUP_ADMIN'],
  [/already a friend/i, 'ALREADY_FRIENDS'],
  [/auth_answer/i, 'WRONG_ANSWER'],
  [/refuses friend/i, 'REQUESTS_REFUSED'],
  [/acting user itself/i, 'CANNOT_REQUEST_SELF'],
];

export function entryRefusal(reason: string, field: readonly string[]): UserErrorShape {
  const code = ENTRY_PHRASES.find(([phrase]) => phrase.test(reason))?.[1] ?? 'NOT_ALLOWED';
  return { field, code, message: reason || CODES[code] };
}

/**
 * A mutation's own reading of upstream codes: a code to add or re-read, and the input field it
 * points at; `when`, for a code the service answers for several causes, picks the cause by its words.
 */
export type Refusals = Readonly<Record<number, { code?: UserErrorCodeName; field?: readonly string[]; when?: RegExp }>>;

/** The upstream code and message of a failed call, as a resolver sees it. */
function upstreamOf(err: unknown): { code: number; message: string } | undefined {
  const upstream = upstreamCause(err);
  if (upstream?.code === undefined) return undefined;
  return { code: upstream.code, message: upstream.upstreamMessage || upstream.message };
}

/** A refusal the gateway itself makes before any call (a bound of its own), thrown by a resolver as the service's are. */
export class GatewayRefusal extends Error {
  constructor(readonly refusal: UserErrorShape) {
    super(refusal.message);
  }
}

/** The user error for a failure, or undefined when it is not a refusal (then it stays a GraphQL error). */
export function refusalOf(err: unknown, refusals: Refusals = {}): UserErrorShape | undefined {
  if (err instanceof GatewayRefusal) return err.refusal;
  const upstream = upstreamOf(err);
  if (!upstream) return undefined;
  const given = refusals[upstream.code];
  const own = given?.when && !given.when.test(upstream.message) ? undefined : given;
  const code = own?.code ?? REFUSALS.get(upstream.code);
  if (!code) return undefined;
  return { field: own?.field ?? null, code, message: upstream.message || CODES[code] };
}
