// The service's message callback (document 6), received: POST IM_CALLBACK_PATH, outside the
// GraphQL pipeline (a route of http/front.ts), on only when IM_CALLBACK_SECRET is set. In order,
// each refused with its status and a one-line reason, nothing handed on:
//   405 not POST; 429 over IM_CALLBACK_RATE from the address; 503 over IM_CALLBACK_MAX_IN_FLIGHT;
//   401 a missing or wrong `signature` (before a byte of the body is read); 413 a body over
//   IM_CALLBACK_MAX_BODY_BYTES; 400 not a JSON object, an app this gateway does not serve, IDs
//   that are not decimal digits (parse-callback.ts).
// Otherwise 200 with an empty body at once (the vendor's own receiver does the same), and the work
// afterwards: de-duplication by appId + msgId across the fleet (dedup.ts), then the sink (the
// subscription hub). Refusals are logged once per address and reason a minute at most, so that a
// flood writes no flood of lines.
import type { SharedRedis } from '../../redis/shared-redis';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Config } from '../../config';
import { log } from '../../log/logger';
import type { CallbackSink } from '../../subscriptions/callback-message';
import { callbackMetrics, type CallbackRefusal } from '../observability/callback-metrics';
import { addressRate, oncePerMinute } from './address-limits';
import { type CallbackDedup, memoryDedup, redisDedup } from './dedup';
import { parseCallback } from './parse-callback';
import { signatureCheck } from './signature';

type CallbackConfig = Pick<
  Config,
  'callbackSecret' | 'callbackPath' | 'callbackMaxBodyBytes' | 'callbackRate' | 'callbackMaxInFlight' | 'callbackDedupSeconds' | 'imAppId'
>;

export interface CallbackReceiverOptions {
  /** Where each accepted message goes, once per appId + msgId across the fleet. */
  sink: CallbackSink;
  /** The request's source address (the peer's, or what a trusted proxy says). */
  addressOf(req: IncomingMessage): string;
  /** The gateway's metrics registry (METRICS on). */
  registry?: Registry | undefined;
  /** Set (REDIS_URL): messages are de-duplicated across the fleet. */
  redis: SharedRedis | undefined;
}

export interface CallbackReceiver {
  readonly path: string;
  /** A front route (http/front.ts): true when the request was the callback's. */
  route(req: IncomingMessage, res: ServerResponse): boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The receiver, or undefined when IM_CALLBACK_SECRET is unset (no route). */
export function callbackReceiver(config: CallbackConfig, options: CallbackReceiverOptions): CallbackReceiver | undefined {
  const secret = config.callbackSecret;
  if (secret === undefined) return undefined;
  const path = config.callbackPath;
  const maxBytes = config.callbackMaxBodyBytes;
  const apps: ReadonlySet<string> = new Set([config.imAppId]);
  const signed = signatureCheck(secret);
  const withinRate = addressRate(config.callbackRate);
  const mayLog = oncePerMinute();
  const metrics = callbackMetrics(options.registry);
  const ttlMs = config.callbackDedupSeconds * 1000;
  const dedup: CallbackDedup = options.redis
    ? redisDedup(options.redis, ttlMs, (err) => {
        metrics.dedupFailure();
        if (mayLog('redis', Date.now())) log().warn(`callbacks: Redis failed (${err.message}): de-duplicating in this replica's memory`);
      })
    : memoryDedup(ttlMs);
  let inFlight = 0;

  function refuse(req: IncomingMessage, res: ServerResponse, address: string, status: number, reason: CallbackRefusal, detail: string) {
    metrics.refused(reason);
    if (mayLog(`${address} ${reason}`, Date.now())) {
      log().warn({ address, status, reason }, `callback refused (${status}): ${detail} (from ${address}; once a minute at most)`);
    }
    if (res.headersSent) return;
    // The body may be unread: the connection closes after the answer rather than read it.
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      connection: 'close',
      ...(status === 405 ? { allow: 'POST' } : {}),
      ...(status === 429 ? { 'retry-after': '1' } : {}),
    });
    res.end(`${detail}\n`);
    if (!req.complete) req.resume();
  }

  function accept(res: ServerResponse, address: string, body: Buffer, req: IncomingMessage): void {
    const receivedAt = Date.now();
    const parsed = parseCallback(body, apps, receivedAt);
    if (parsed.kind === 'refused') return refuse(req, res, address, 400, parsed.reason, parsed.detail);
    res.writeHead(200, { 'content-length': 0 });
    res.end();
    if (parsed.kind === 'ignored') {
      metrics.ignored(parsed.reason);
      log().debug({ reason: parsed.reason, type: parsed.type }, 'callback ignored');
      return;
    }
    const { message } = parsed;
    metrics.received(message.type);
    void dedup.first(message.appId, message.msgId).then((first) => {
      if (!first) {
        metrics.duplicate();
        log().debug({ msgId: message.msgId }, 'callback repeated: handled already');
        return;
      }
      if (message.timestamp !== undefined) metrics.lag(receivedAt - Number(message.timestamp));
      log().debug({ msgId: message.msgId, type: message.type }, 'callback');
      try {
        options.sink.deliver(message);
      } catch (err) {
        log().error({ err, msgId: message.msgId }, 'callback: handing the message to the subscriptions failed');
      }
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const address = options.addressOf(req);
    if (req.method !== 'POST') return refuse(req, res, address, 405, 'method', `only POST is served at ${path}`);
    if (!withinRate(address, Date.now())) {
      return refuse(req, res, address, 429, 'rate', `more than ${config.callbackRate} callbacks a second from one address`);
    }
    if (inFlight >= config.callbackMaxInFlight) {
      return refuse(req, res, address, 503, 'busy', `${config.callbackMaxInFlight} callbacks are being read already`);
    }
    if (!signed(header(req, 'signature'))) return refuse(req, res, address, 401, 'signature', 'the signature header is missing or wrong');
    const length = header(req, 'content-length');
    if (length !== undefined && (!/^\d+$/.test(length) || Number(length) > maxBytes)) {
      return refuse(req, res, address, 413, 'too_large', `the body is over ${maxBytes} bytes (IM_CALLBACK_MAX_BODY_BYTES)`);
    }
    inFlight++;
    let done = false;
    const finish = () => {
      if (done) return false;
      done = true;
      inFlight--;
      return true;
    };
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        finish();
        chunks.length = 0;
        return refuse(req, res, address, 413, 'too_large', `the body is over ${maxBytes} bytes (IM_CALLBACK_MAX_BODY_BYTES)`);
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (finish()) accept(res, address, Buffer.concat(chunks, size), req);
    });
    // The sender went away: nothing to answer, nothing handed on.
    req.once('close', () => finish());
    req.once('error', () => res.destroy());
  }

  return {
    path,
    route(req, res) {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      if ((query < 0 ? url : url.slice(0, query)) !== path) return false;
      handle(req, res);
      return true;
    },
    async start() {
      await dedup.start();
      log().debug(
        `callbacks: POST ${path} (app ${config.imAppId}; repeats dropped ${options.redis ? 'across the fleet (Redis)' : 'in memory'})`,
      );
    },
    close: () => dedup.close(),
  };
}
