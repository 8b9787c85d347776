// graphql-ws's server on ws's sockets: what `graphql-ws/use/ws` does (keep-alive pings, the
// subprotocol, one server per socket), with the client's protocol faults told apart from the
// gateway's own failures. graphql-ws's adapter treats every throw of its message handler as an
// internal error: a client-sent `next` (or `error`, `connection_ack`: types only a server sends)
// closed the socket with 4500 and printed an 11-line stack with absolute paths outside the JSON
// logs. Here such a message closes with 4400 Bad request, as graphql-ws itself closes on a message
// it cannot parse; each protocol close (4400, 4401 before the ack, 4409, 4429) logs one JSON line,
// at warn and without a stack; a real failure logs one JSON line at error and closes with 4500.
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, MessageType, parseMessage, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { log } from '../../log/logger';

/** What a client may send; graphql-ws throws on the other types (those only a server sends). */
const CLIENT_TYPES: ReadonlySet<string> = new Set([
  MessageType.ConnectionInit,
  MessageType.Ping,
  MessageType.Pong,
  MessageType.Subscribe,
  MessageType.Complete,
]);

/** The closes graphql-ws makes for a client that broke the protocol. */
const PROTOCOL_CLOSES: ReadonlySet<number> = new Set([
  CloseCode.BadRequest,
  CloseCode.Unauthorized,
  CloseCode.SubscriberAlreadyExists,
  CloseCode.TooManyInitialisationRequests,
]);

/** The type of a well-formed message a client may not send, else undefined (the throw was ours). */
function forbiddenType(data: string): string | undefined {
  try {
    const { type } = parseMessage(data);
    return CLIENT_TYPES.has(type) ? undefined : type;
  } catch {
    return undefined;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function protocolClose(socket: WebSocket, request: IncomingMessage, code: number, reason: string): void {
  log().warn({ code, reason, address: request.socket.remoteAddress }, 'WebSocket closed: the client broke the graphql-ws protocol');
  socket.close(code, reason);
}

/** Serves graphql-ws on every socket of `wss`; pings each every `keepAliveMs` and drops it when no pong comes back in time. */
export function serveGraphqlWs<P extends Record<string, unknown> | undefined>(
  options: ServerOptions<P, Extra>,
  wss: WebSocketServer,
  keepAliveMs = 12_000,
): { dispose(): Promise<void> } {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  // The listening server's own failure: logged; without a listener it would be thrown.
  wss.on('error', (err) => log().error({ error: errorText(err) }, 'WebSocket server error'));

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.on('error', (err: Error & { code?: unknown }) => {
      // ws's frame parser (an oversized or malformed frame): the client's, and ws has closed the socket already.
      if (typeof err.code === 'string' && err.code.startsWith('WS_ERR_')) return;
      log().warn({ error: errorText(err), address: request.socket.remoteAddress }, 'WebSocket error: the socket is dropped');
      socket.terminate();
    });

    let pongWait: ReturnType<typeof setTimeout> | undefined;
    const pings = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), keepAliveMs);
      socket.once('pong', () => clearTimeout(pongWait));
      socket.ping();
    }, keepAliveMs);

    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => (err ? reject(err) : resolve()));
          }),
        close: (code = 1000, reason = '') => {
          if (PROTOCOL_CLOSES.has(code)) protocolClose(socket, request, code, reason);
          else socket.close(code, reason);
        },
        onMessage: (handle) => {
          const receive = async (text: string) => {
            try {
              await handle(text);
            } catch (err) {
              const type = forbiddenType(text);
              // A close reason holds at most 123 bytes.
              if (type !== undefined)
                return protocolClose(socket, request, CloseCode.BadRequest, `Bad request: a client may not send ${type}`.slice(0, 120));
              log().error(
                { error: errorText(err), address: request.socket.remoteAddress },
                'WebSocket message failed: the socket is closed',
              );
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          };
          socket.on('message', (data) => void receive(String(data)));
        },
      },
      { socket, request },
    );

    socket.once('close', (code, reason) => {
      clearTimeout(pongWait);
      clearInterval(pings);
      void closed(code, String(reason));
    });
  });

  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
