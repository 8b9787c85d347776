// Every HTTP request enters the gateway here, before yoga serves it.
// The checks that need the raw request are made once, in this one place:
// - the Host header: yoga builds its request URL from it, so a Host holding a path
//   (`evil.example/metrics?`) would move the route, and one that is no URL authority at all
//   (`bad host`, `[::1`) made yoga answer a 500 with a stack. A malformed Host is refused (400)
//   and never reaches the URL;
// - the body of every request that is not multipart: read here, within MAX_BODY_BYTES (413, from
//   the Content-Length before a byte is read, or where a chunked body passes the limit), and a JSON
//   body (or a form's JSON fields) scanned for its object members and array items (400 over MAX_JSON_MEMBERS or MAX_JSON_ITEMS) before anything parses it.
//   Multipart bodies (uploads) stream on: body-limits.ts caps them as they flow.
// - who the request is (src/identity.ts): read once here, from the headers (and an EventSource's
//   URL), for the rate limit, the context and every per-identity structure after them.
// A refusal is not written here: it is recorded on the request and raised by `useFrontRefusals`
// inside yoga, so that every answer (CORS headers, content type, status rules) is yoga's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { Identity } from '../../identity';
import { badContentLength, bodyTooLarge, isMultipart, jsonExcess, type JsonExcess, tooMuchJson } from './body-limits';

/** A request as the front hands it on: its body already read (or left streaming), maybe a refusal. */
export type FrontRequest = IncomingMessage & {
  /**
   * The body as read, which whatwg-node's Node adapter takes instead of the socket: a JSON
   * request's body parsed (the adapter answers yoga's `request.json()` with it: parsed once), any
   * other as a stream of one chunk. Never a Buffer or a string: the adapter tells a body by
   * `Object.keys(body).length`, which for those lists every byte (70 ms for a 0.6 MB body).
   */
  body?: Readable | object;
  /** Why the request is refused; raised by useFrontRefusals before anything else runs. */
  frontRefusal?: Error;
  /** Who the request is, read once for everything after the front. */
  identity?: Identity;
};

export interface FrontOptions {
  maxBodyBytes: number;
  /** Tried in order before GraphQL (GraphiQL's page, downloads): true when one answered. */
  routes: readonly ((req: IncomingMessage, res: ServerResponse) => boolean)[];
  /** Reads who a request is (for GraphQL requests: other routes identify their own). */
  identify(req: IncomingMessage): Identity;
  /** Serves the request once its body is read: yoga's node handler or the adapter. */
  serve(req: FrontRequest, res: ServerResponse): void;
}

// RFC 3986 authority as a Host header carries it: a reg-name or IPv4, or an IPv6 literal, and a port.
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** What yoga sees in place of a malformed Host, so that its URL is well formed; the refusal is the answer. */
const PLACEHOLDER_HOST = 'localhost';

const isJson = (type: string | undefined) => type !== undefined && /^application\/(graphql\+|graphql-response\+)?json\b/i.test(type);
const isForm = (type: string | undefined) => type !== undefined && /^application\/x-www-form-urlencoded\b/i.test(type);
/** The fields of a form body that yoga parses as JSON. */
const FORM_JSON_FIELDS = ['variables', 'extensions'] as const;

/** Which JSON bound a body passes, if any: a JSON body, or a form's JSON fields. */
function jsonExcessOf(type: string | undefined, body: Buffer): JsonExcess | undefined {
  if (isJson(type)) return jsonExcess(body);
  if (!isForm(type)) return undefined;
  const form = new URLSearchParams(body.toString('utf8'));
  for (const field of FORM_JSON_FIELDS) {
    for (const value of form.getAll(field)) {
      const excess = jsonExcess(Buffer.from(value));
      if (excess) return excess;
    }
  }
  return undefined;
}
/** A body yoga's JSON parser reads (its own test: the first listed type, as written). */
const YOGA_JSON = /^application\/(graphql\+)?json(;|$)/;

/**
 * A JSON body as the adapter can hand it over parsed: an object or array with members. Anything
 * else (invalid JSON, `null`, a number, `{}`) goes as bytes, for yoga's parser to word its refusal.
 */
function parsedJson(req: IncomingMessage, body: Buffer): object | undefined {
  if (req.method !== 'POST' || !YOGA_JSON.test(req.headers['content-type']?.split(',')[0] ?? '')) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && Object.keys(value).length > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
const hasNoBody = (method: string | undefined) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

function badHost() {
  return createGraphQLError('the Host header is malformed', { extensions: { http: { status: 400 }, code: 'BAD_REQUEST' } });
}

export function createFront({ maxBodyBytes, routes, identify, serve }: FrontOptions): (req: IncomingMessage, res: ServerResponse) => void {
  /** Reads the body within the limit, then serves; a refusal is recorded and served without the rest of the body. */
  function readBody(req: FrontRequest, res: ServerResponse): void {
    const length = req.headers['content-length'];
    if (length !== undefined) {
      if (!/^\d+$/.test(length)) return refuse(req, res, badContentLength());
      if (Number(length) > maxBodyBytes) return refuse(req, res, bodyTooLarge(maxBodyBytes, 'the request body'));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBodyBytes) {
        done = true;
        req.off('data', onData);
        req.pause();
        return refuse(req, res, bodyTooLarge(maxBodyBytes, 'the request body'));
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      done = true;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      const excess = jsonExcessOf(req.headers['content-type'], body);
      if (excess) return refuse(req, res, tooMuchJson(excess));
      req.body = parsedJson(req, body) ?? Readable.from([body]);
      serve(req, res);
    });
    // The client went away: nothing is left to answer.
    req.once('error', () => res.destroy());
  }

  function refuse(req: FrontRequest, res: ServerResponse, refusal: Error): void {
    req.frontRefusal = refusal;
    // An empty body stands for the unread one: no parser runs before the refusal is raised.
    if (!hasNoBody(req.method)) req.body = Readable.from([]);
    serve(req, res);
  }

  return (req: FrontRequest, res) => {
    const host = req.headers.host;
    if (host !== undefined && !HOST.test(host)) {
      req.headers.host = PLACEHOLDER_HOST;
      req.identity = identify(req);
      return refuse(req, res, badHost());
    }
    for (const route of routes) if (route(req, res)) return;
    req.identity = identify(req);
    if (hasNoBody(req.method) || isMultipart(req.headers['content-type'])) return serve(req, res);
    readBody(req, res);
  };
}

/**
 * Raises the front's refusal before any other check of a GraphQL request (put it first), so that yoga
 * writes it as it writes every answer. Other routes (/health, /metrics) read no body and no Host.
 */
export function useFrontRefusals(): Plugin<Record<string, unknown>, { req?: FrontRequest }> {
  return {
    onRequestParse({ serverContext }) {
      const refusal = serverContext.req?.frontRefusal;
      if (refusal) throw refusal;
    },
  };
}

/** The identity the front read for an HTTP request (every GraphQL request passes the front). */
export function requestIdentity(req: FrontRequest | undefined): Identity {
  const identity = req?.identity;
  if (!identity) throw new Error('a GraphQL request that did not pass the front has no identity');
  return identity;
}
