// A graphql-ws socket driven by hand, message by message: for probes that send what a client
// library would not (oversized frames, deeply nested variables) and read each answer as it comes.
import WebSocket from 'ws';
import { wsUrl } from './subscriptions/clients';

export interface RawSocket {
  socket: WebSocket;
  /** The next message from the server, parsed. */
  next(): Promise<{ type: string; id?: string; payload?: unknown }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a graphql-transport-ws socket on the gateway at `origin`. */
export async function openRawSocket(origin: string): Promise<RawSocket> {
  const socket = new WebSocket(wsUrl(origin), 'graphql-transport-ws');
  const inbox: string[] = [];
  const waiting: (() => void)[] = [];
  socket.on('message', (data) => {
    inbox.push(String(data));
    waiting.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    socket,
    closed,
    async next() {
      while (inbox.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      return JSON.parse(inbox.shift()!) as { type: string };
    },
  };
}

export const sendRaw = (raw: RawSocket, message: unknown) => raw.socket.send(JSON.stringify(message));
