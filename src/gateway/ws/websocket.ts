// graphql-ws on the gateway's own HTTP server and path. Operations go through yoga's envelop,
// so WebSocket subscriptions run the same plugins and context as HTTP requests. The identity in
// connectionParams (the HTTP header names) is checked at connect: a token the service rejects
// closes the socket with 4401 (4403 for a refused user), which graphql-ws clients do not retry.
// GraphiQL sends no connectionParams but puts its headers in each operation's
// `extensions.headers`: those, when present, name the operation's identity (as HTTP headers do).
// An operation the gateway refuses (syntax, validation, a document limit, the rate limit, a
// subscription limit: socket-slots.ts) ends with an `error` message for that operation alone: the
// socket and its other subscriptions live on. A client that breaks the protocol itself (a `next`
// it may not send, a malformed message) is closed with graphql-ws's own code (socket-server.ts).
import type { IncomingMessage, Server } from 'node:http';
import { type ExecutionArgs, getOperationAST, GraphQLError } from 'graphql';
import { CloseCode, type Context, type SubscribePayload } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { paramsLookup } from '../../context';
import type { Verdict } from '../../subscriptions/hub';
import type { Identity } from '../../identity';
import { SLOT_HELD } from '../execution/subscription-limits';
import { paramsDepthRefusal } from '../http/params-depth';
import { limitMessages } from './ws-limits';
import { serveGraphqlWs } from './socket-server';
import type { SocketSlots } from './socket-slots';
import type { SharedSubscriptions } from './shared-subscriptions';
import type { ResumeSlot } from '../../subscriptions/resume';

interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

export interface WebSocketOptions {
  /** Checks the identity a connection presents. */
  verify?: (identity: Identity) => Promise<Verdict>;
  /** Largest message once the connection is acknowledged. */
  maxPayloadBytes: number;
  /** Largest message before `connection_init` is acknowledged. */
  maxInitBytes: number;
  /** Who a connection (or an operation naming its own headers) is, from its params and address. */
  identify: (lookup: (name: string) => string | undefined, address: string | undefined) => Identity;
  /** The client's address from the upgrade request (a trusted proxy's X-Forwarded-For); default: the peer's. */
  addressOf?: (req: IncomingMessage) => string | undefined;
  /** Subscribers of the same operation for the same identity share one execution. */
  shared?: SharedSubscriptions;
  /** The subscription limits: per socket, and the identity's slots. */
  slots?: SocketSlots;
  /** Whether a page of this origin may open a socket (refused: HTTP 403 before the upgrade). */
  originAllowed?: (origin: string | undefined, host: string | undefined) => boolean;
  /** The rate limit: each operation (`subscribe` message) takes one; the refusal when over it. */
  admit?: (identity: Identity) => Promise<GraphQLError | undefined>;
  /**
   * The document an operation names (a documentId, an APQ hash; graphql-ws needs a `query`
   * string, so an empty one stands for none), as HTTP requests resolve it; throws a coded refusal.
   */
  resolveParams?: (payload: SubscribePayload) => Promise<{ params: SubscribePayload }>;
  /** A subscription's place in the resume store, when its connection names a client key (resume-on-retry.ts). */
  resume?: (
    identity: Identity,
    connectionParams: Record<string, unknown> | undefined,
    payload: SubscribePayload,
  ) => Promise<ResumeSlot | undefined>;
}

/**
 * The error as a graphql-ws client sees it: yoga's HTTP status hint means nothing here, and a
 * syntax error gets the code yoga gives it over HTTP.
 */
function forSocket(error: GraphQLError): GraphQLError {
  const { http: _http, ...extensions } = error.extensions;
  if (extensions.code === undefined && error.message.startsWith('Syntax Error')) extensions.code = 'GRAPHQL_PARSE_FAILED';
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How long close() waits for subscriptions that were ended to send `complete` to their clients. */
const COMPLETE_WAIT_MS = 2_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- yoga's server and user context generics vary per gateway
export function mountWebSocket(server: Server, yoga: YogaServerInstance<any, any>, options: WebSocketOptions) {
  const { originAllowed } = options;
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: options.maxPayloadBytes,
    ...(originAllowed
      ? {
          verifyClient: (
            { origin, req }: { origin: string; req: IncomingMessage },
            done: (ok: boolean, status?: number, reason?: string) => void,
          ) => done(originAllowed(origin || undefined, req.headers.host), 403, 'Origin not allowed (CORS_ORIGINS)'),
        }
      : {}),
  });
  // Before graphql-ws sees the socket: no frame over the small limit until the identity is checked.
  wss.on('connection', (socket) => limitMessages(socket, Math.min(options.maxInitBytes, options.maxPayloadBytes)));
  // Subscriptions running, per connection, so that close() can let them send `complete` first.
  const running = new Map<object, Set<string>>();
  const untrack = (ctx: object, id?: string) => {
    const ids = running.get(ctx);
    if (id === undefined) ids?.clear();
    else ids?.delete(id);
    if (ids?.size === 0) running.delete(ctx);
  };

  // Each socket's identity, read once at connect (the address from the upgrade request, whose graphql-ws copy is dropped then).
  const identities = new WeakMap<object, Identity>();

  /** The operation's execution args, or the errors that refuse it (thrown errors included). */
  const prepare = async (ctx: Context<Record<string, unknown> | undefined, Extra>, sent: SubscribePayload) => {
    // Before anything walks them (the resume and sharing keys, coercion): an error for this operation alone.
    const tooDeep = paramsDepthRefusal(sent);
    if (tooDeep) throw tooDeep;
    const payload = options.resolveParams ? (await options.resolveParams(sent)).params : sent;
    const headers = payload.extensions?.headers;
    const connection = identities.get(ctx.extra.socket)!;
    const connectionParams = isRecord(headers) ? { ...ctx.connectionParams, ...headers } : ctx.connectionParams;
    // An operation naming headers of its own (GraphiQL's) is who they say; any other is the connection's.
    const identity =
      connectionParams === ctx.connectionParams ? connection : options.identify(paramsLookup(connectionParams), connection.address);
    const refused = await options.admit?.(identity);
    if (refused) return [forSocket(refused)];
    const resume = await options.resume?.(identity, connectionParams, payload);
    const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
      ...ctx,
      req: ctx.extra.request,
      socket: ctx.extra.socket,
      params: payload,
      connectionParams,
      identity,
      resume,
      // The slot is taken here (onSubscribe), for every operation, shared or not.
      [SLOT_HELD]: true,
    });
    const args = {
      schema,
      operationName: payload.operationName,
      document: parse(payload.query),
      variableValues: payload.variables,
      contextValue: await contextFactory(),
      rootValue: { execute, subscribe },
    };
    const errors = validate(args.schema, args.document);
    if (errors.length) return errors.map(forSocket);
    if (options.slots && getOperationAST(args.document, args.operationName)?.operation === 'subscription') {
      const refusal = await options.slots.admit(ctx, payload, identity);
      if (refusal) return [refusal];
    }
    return args;
  };

  const disposable = serveGraphqlWs(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => {
        const run = (own: ExecutionArgs) => (own.rootValue as EnvelopedRoot).subscribe(own) as never;
        return (options.shared ? options.shared.subscribe(args, run) : run(args)) as never;
      },
      onConnect: async (ctx) => {
        const request = ctx.extra.request;
        const identity = options.identify(
          paramsLookup(ctx.connectionParams),
          options.addressOf ? options.addressOf(request) : request.socket.remoteAddress,
        );
        identities.set(ctx.extra.socket, identity);
        // graphql-ws keeps the upgrade request as long as the socket lives; nothing else here reads it.
        (ctx.extra as { request?: unknown }).request = undefined;
        const accept = () => {
          limitMessages(ctx.extra.socket, options.maxPayloadBytes);
          return true;
        };
        if (!options.verify) return accept();
        const verdict = await options.verify(identity);
        if (verdict === 'ok') return accept();
        // graphql-ws closes with 4403 on `false`; a rejected token is 4401.
        if (verdict === 'unauthenticated') ctx.extra.socket.close(CloseCode.Unauthorized, 'Unauthorized: access-token rejected');
        return false;
      },
      onSubscribe: async (ctx, _id, payload) => {
        try {
          return await prepare(ctx, payload);
        } catch (err) {
          if (err instanceof GraphQLError) return [forSocket(err)];
          throw err;
        }
      },
      onOperation: (ctx, id, _payload, _args, result) => {
        if (!(typeof result === 'object' && result !== null && Symbol.asyncIterator in result)) return;
        const ids = running.get(ctx) ?? new Set<string>();
        running.set(ctx, ids.add(id));
      },
      onComplete: (ctx, id, payload) => {
        untrack(ctx, id);
        options.slots?.release(ctx, payload);
      },
      onError: (ctx, id, payload) => {
        untrack(ctx, id);
        options.slots?.release(ctx, payload);
      },
      onClose: (ctx) => {
        untrack(ctx);
        options.slots?.releaseAll(ctx);
      },
    },
    wss,
  );
  return {
    /** Closes every connection; subscriptions already ended get to send `complete` first. */
    async close() {
      const deadline = Date.now() + COMPLETE_WAIT_MS;
      while (running.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      // `complete` is sent right after onComplete: one more turn and it is on the socket.
      await new Promise((resolve) => setImmediate(resolve));
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
