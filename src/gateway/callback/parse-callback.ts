// One callback body (document 6) → the CallbackMessage the subscriptions take, or why it is
// ignored or refused. Pure. Tolerant where document 6 is unsure: IDs as digit strings or as JSON
// numbers (read without passing through a JavaScript number: src/rest/json.ts), JSON-bearing
// fields as JSON text or as JSON values, `timestamp` optional, unknown fields ignored, unknown
// `type`s (operations, online state: not shown) and system messages (`isSystem`, `from.uid` 0)
// accepted and ignored. Strict where a wrong value would mislead the subscribers: an unknown app,
// and IDs that are not decimal digits, are refused.
import { parseJson, stringifyJson } from '../../rest/json';
import { CALLBACK_TYPES, type CallbackMessage, type CallbackType } from '../../subscriptions/callback-message';

export type ParsedCallback =
  | { kind: 'message'; message: CallbackMessage }
  /** Accepted (200) and not handed on. `type`: the callback's type, or 'other' for an unknown one. */
  | { kind: 'ignored'; reason: 'type' | 'system'; type: string }
  /** 400, with a one-line reason. */
  | { kind: 'refused'; reason: 'malformed' | 'app' | 'id'; detail: string };

/** 2^64 - 1: the service's IDs are unsigned 64-bit (protobuf uint64). */
const UINT64_MAX = 2n ** 64n - 1n;
const DIGITS = /^\d{1,20}$/;

/** A value as a refusal may quote it: short, and never more than one line. */
const quoted = (value: unknown): string => {
  const text = typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** The decimal text of an ID given as digits or as a JSON integer; undefined when it is neither. */
function idOf(value: unknown): string | undefined {
  let big: bigint | undefined;
  if (typeof value === 'string' && DIGITS.test(value)) big = BigInt(value);
  else if (typeof value === 'bigint') big = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
  return big !== undefined && big >= 0n && big <= UINT64_MAX ? big.toString() : undefined;
}

/** A field that holds JSON text (config, ext, attachment) or plain text: JSON values are written back as text. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : stringifyJson(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCallbackType = (value: unknown): value is CallbackType => (CALLBACK_TYPES as readonly unknown[]).includes(value);

class Refusal {
  constructor(
    readonly reason: 'malformed' | 'app' | 'id',
    readonly detail: string,
  ) {}
}

function requiredId(record: Record<string, unknown>, key: string, name: string): string {
  const value = record[key];
  if (value === undefined) throw new Refusal('id', `${name} is missing`);
  const id = idOf(value);
  if (id === undefined) throw new Refusal('id', `${name} must be a string of decimal digits (got ${quoted(value)})`);
  return id;
}

function party(body: Record<string, unknown>, key: 'from' | 'to'): string {
  const value = body[key];
  if (!isRecord(value)) throw new Refusal('id', `${key} must be an object with a uid (got ${quoted(value)})`);
  return requiredId(value, 'uid', `${key}.uid`);
}

function parse(text: string, apps: ReadonlySet<string>, receivedAt: number): ParsedCallback {
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    throw new Refusal('malformed', 'the body is not JSON');
  }
  if (!isRecord(body)) throw new Refusal('malformed', 'the body is not a JSON object (one message per callback)');
  const { appId, type } = body;
  if (typeof appId !== 'string') throw new Refusal('app', `appId must be a string (got ${quoted(appId)})`);
  if (!apps.has(appId)) throw new Refusal('app', `appId ${quoted(appId)} is not an app this gateway serves`);
  // Checked before the IDs: what else an unknown type carries is not shown.
  if (!isCallbackType(type)) return { kind: 'ignored', reason: 'type', type: 'other' };
  if (body.isSystem === true) return { kind: 'ignored', reason: 'system', type };
  const msgId = requiredId(body, 'msgId', 'msgId');
  const from = party(body, 'from');
  const to = party(body, 'to');
  if (from === '0') return { kind: 'ignored', reason: 'system', type };
  // Optional, and only for the lag metric: an unreadable or zero one (the connector's default) counts as absent.
  const timestamp = idOf(body.timestamp);
  return {
    kind: 'message',
    message: {
      appId,
      msgId,
      from,
      to,
      type,
      ctype: typeof body.ctype === 'string' ? body.ctype : '',
      content: textOf(body.content),
      attachment: textOf(body.attachment),
      config: textOf(body.config),
      ext: textOf(body.ext),
      ...(timestamp !== undefined && timestamp !== '0' ? { timestamp } : {}),
      receivedAt,
    },
  };
}

/** Reads one callback body; `apps`: the app IDs this gateway serves. */
export function parseCallback(body: Buffer, apps: ReadonlySet<string>, receivedAt: number): ParsedCallback {
  try {
    return parse(body.toString('utf8'), apps, receivedAt);
  } catch (err) {
    if (err instanceof Refusal) return { kind: 'refused', reason: err.reason, detail: err.detail };
    throw err;
  }
}
