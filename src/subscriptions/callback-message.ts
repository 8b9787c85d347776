// The seam between the service's message callback (document 6) and the subscriptions: the
// gateway's callback route checks, parses and de-duplicates what the service POSTs, then hands
// each message here; the hub turns it into events for the subscribers it concerns, on every
// replica. Plain data (strings only), so that one replica can hand it to another as JSON.

/** The callback types that carry events; the receiver accepts and ignores every other type. */
export const CALLBACK_TYPES = ['CHAT', 'GROUPCHAT', 'APPEND', 'REPLACE'] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

/**
 * One message the service called back, as the receiver accepted it. Every ID is a decimal digit
 * string, never a JavaScript number (`msgId` exceeds 2^53); JSON-bearing fields stay JSON text as
 * the service sends them ("" when absent).
 */
export interface CallbackMessage {
  appId: string;
  msgId: string;
  /** The sender's user ID (`from.uid`). */
  from: string;
  /** The receiving user (CHAT, APPEND, REPLACE) or group (GROUPCHAT): `to.uid`. */
  to: string;
  type: CallbackType;
  /** TEXT, IMAGE, ...; "" when absent (operations). */
  ctype: string;
  content: string;
  attachment: string;
  config: string;
  ext: string;
  /** Server time of the message in ms (digits), when the callback carried one. */
  timestamp?: string;
  /** When the receiver accepted it (ms since the epoch, the receiver's clock): for the lag metric. */
  receivedAt: number;
}

/** Where the receiver hands each accepted message, once per `appId` + `msgId` across the fleet. */
export interface CallbackSink {
  deliver(message: CallbackMessage): void;
}
