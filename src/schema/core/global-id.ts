// Global object identification: an ID that names one object of any type, so that `node(id:)` can
// fetch it again and Relay-style caches can key it. User and Group keep the service's int64 as
// their ID (user and group IDs never coincide); every other Node's global ID is its type and the
// service IDs that locate it ("Message:<peer>:<message>"), base64url-encoded so clients treat it
// as opaque. Which ID `id` answers is the request's ID format (id-format.ts).
import type { GatewayContext } from '../../context';
import { idText, INT64_MAX, type Int64, toInt64 } from '../../rest/json';

/** The kinds of global ID, and how many service IDs locate one. */
export const GLOBAL_KINDS = {
  Message: 2, // the conversation (the other user's ID or the group ID, as the reader sees it) and the message
  Conversation: 1, // the other user's ID, or the group ID
  Announcement: 2, // the group and the announcement
  SharedFile: 2, // the group and the file
  Member: 2, // the group and the user
  BlockedMember: 2, // the group and the user
  GroupApplication: 2, // the group and the applicant
  GroupInvitation: 3, // the group, the inviter and the invitee
  Device: 2, // the user and the device number
  FriendRequest: 2, // the receiver and the sender
} as const;

export type GlobalKind = keyof typeof GLOBAL_KINDS;

const isKind = (name: string): name is GlobalKind => Object.hasOwn(GLOBAL_KINDS, name);

/** A global ID a client sent (the ID scalar parsed it); fields read it as their arguments declare (id-kinds.ts, global-id-inputs.ts). */
export class GlobalId {
  constructor(
    readonly kind: GlobalKind,
    readonly parts: readonly Int64[],
    readonly text: string,
  ) {}

  /** The service ID it stands for where an argument takes one ID: the last part (the message, the file, the peer). */
  get serviceId(): Int64 {
    return this.parts[this.parts.length - 1]!;
  }

  /** Its text: graphql-jit writes a document's literal arguments into the code it compiles as JSON (globalIdOf reads it back). */
  toJSON(): string {
    return this.text;
  }
}

export function encodeGlobalId(kind: GlobalKind, parts: readonly Int64[]): string {
  let plain: string = kind;
  for (const part of parts) plain += ':' + idText(part);
  return Buffer.from(plain, 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]{8,200}$/;
const DECIMAL_PART = /^\d{1,19}$/;

/**
 * The global ID `text` names, or undefined when it is none of ours. Only the exact encoding is
 * accepted (the text re-encodes to itself), so one object has one ID text.
 */
export function decodeGlobalId(text: string): GlobalId | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const [kind, ...parts] = Buffer.from(text, 'base64url').toString('utf8').split(':');
  if (kind === undefined || !isKind(kind) || parts.length !== GLOBAL_KINDS[kind]) return undefined;
  if (!parts.every((p) => DECIMAL_PART.test(p) && BigInt(p) <= INT64_MAX)) return undefined;
  const ids = parts.map((p) => toInt64(p));
  return encodeGlobalId(kind, ids) === text ? new GlobalId(kind, ids, text) : undefined;
}

/**
 * The global ID an argument value holds, if any: graphql-js hands resolvers the GlobalId the ID
 * scalar parsed, graphql-jit its text (of an ID variable as sent, see jit-variables.ts, or of a literal).
 */
export function globalIdOf(value: unknown): GlobalId | undefined {
  if (value instanceof GlobalId) return value;
  return typeof value === 'string' && !DECIMAL_PART.test(value) ? decodeGlobalId(value) : undefined;
}

/** Whether an output value is a global ID's text: the ID scalar writes those as they are. */
export const looksGlobal = (text: string) => BASE64URL.test(text) && !DECIMAL_PART.test(text);

/**
 * The `id` of a Node other than User and Group: its global ID when the request asked for global
 * IDs, else what `id` answered before global IDs (`legacy`: the service's ID, or the joined cache
 * identity), unchanged for clients that have not moved.
 */
export function nodeId(ctx: GatewayContext, kind: GlobalKind, parts: readonly Int64[], legacy: Int64 | string): Int64 | string {
  return ctx.idFormat === 'global' ? encodeGlobalId(kind, parts) : legacy;
}

/**
 * The service ID an argument value stands for: an int64 as it is; a global ID of a kind the
 * argument takes (`kinds`) as its service ID. Undefined for a global ID of another kind, which the
 * caller refuses with the argument's name.
 */
export function serviceIdOf(value: Int64 | GlobalId, kinds: readonly GlobalKind[]): Int64 | undefined {
  if (!(value instanceof GlobalId)) return value;
  return kinds.includes(value.kind) ? value.serviceId : undefined;
}
