// WebSocket message limits. The server's `maxPayload` bounds every message; until graphql-ws has
// acknowledged `connection_init` (no identity checked yet) a socket gets a much smaller limit, so
// that unauthenticated clients cannot make the gateway buffer large frames. Over either limit,
// ws refuses the frame from its length header, before buffering it, and closes with 1009
// (message too big).
import type { WebSocket } from 'ws';

/** The part of ws's per-socket frame parser (ws 8, lib/receiver.js) read at every frame header. */
interface FrameLimit {
  _maxPayload: number;
}

function frameLimitOf(socket: WebSocket): FrameLimit {
  // ws has no public setter for one socket's limit; its Receiver reads this field per frame.
  const receiver = (socket as unknown as { _receiver?: Partial<FrameLimit> | null })._receiver;
  if (typeof receiver?._maxPayload !== 'number') throw new Error('ws internals changed: no per-socket message limit (see ws-limits.ts)');
  return receiver as FrameLimit;
}

/** Sets the largest message this socket may send from now on. */
export function limitMessages(socket: WebSocket, bytes: number): void {
  frameLimitOf(socket)._maxPayload = bytes;
}
