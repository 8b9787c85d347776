// The fast path for the common GraphQL request: a POST of application/json (or a GET with the
// query in the URL) to the GraphQL endpoint, without CORS and without a streaming answer. It runs
// yoga's own pieces — its onRequest/onResponse hooks (metrics, health routes, CORS), its request
// parser and its checks (yoga.parseRequest), the envelop pipeline with the parse/validate cache,
// limits, context and error masking (yoga.getResultForParams), its result processors and status
// rules — but skips the fetch-API Request/Response objects yoga builds around every request,
// which cost most of the CPU of a small query. Yoga stays the one definition of behaviour: this
// file only carries a request to those pieces and writes what they answer, as yoga would.
//
// Anything else goes to yoga untouched: GraphiQL, SSE and multipart answers, uploads, CORS
// (any request with an Origin header), bodies without a Content-Length or larger than
// FAST_BODY_BYTES, and every request a hook would answer early or that yoga's parser refuses (the
// body already read is handed to yoga, which then reads it instead of the socket). No operation
// is executed before the fast path is sure to answer it itself.
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { type Plugin, processRegularResult, type YogaServer } from 'graphql-yoga';

/** Larger bodies go to yoga, whose limits and streaming parser apply. */
const FAST_BODY_BYTES = 64 * 1024;

interface FastPath {
  /** Hands the fast path yoga's hooks: add it to createYoga's plugins. */
  readonly plugin: Plugin;
  /** Takes the request (true) or leaves it untouched for yoga (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests answered here so far (not those handed to yoga after all). */
  answered(): number;
}

interface FastPathOptions {
  /** The GraphQL endpoint's path. */
  endpoint: string;
  /** Yoga's node handler: what the fast path leaves a request to. */
  fallback(req: IncomingMessage, res: ServerResponse): void;
}

// The shapes of yoga's hooks as the fast path calls them (yoga's own types want full fetch-API
// objects; the fast path hands over a request with the members those hooks read).
type MaybePromise<T> = T | Promise<T>;
type Hook = (payload: Record<string, unknown>) => MaybePromise<unknown>;
interface Hooks {
  onRequest?: Hook;
  onResponse?: Hook;
  onResultProcess?: Hook;
  onExecutionResult?: Hook;
}
type ResultProcessor = (result: unknown, fetchAPI: unknown, mediaType: string) => MaybePromise<unknown>;

// Answers that may stream are yoga's to give.
const STREAMING_ACCEPT = /text\/event-stream|multipart\/|text\/html/i;
const JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
const NEVER_ABORTED = new AbortController().signal;

/** A URL made only when a hook reads more than its path (as yoga's own lazy URL). */
function lazyUrl(href: string, pathname: string): URL {
  let parsed: URL | undefined;
  return new Proxy({} as URL, {
    get: (_target, prop) => (prop === 'pathname' ? pathname : Reflect.get((parsed ??= new URL(href)), prop, parsed)),
  });
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => typeof (value as { then?: unknown } | undefined)?.then === 'function';

/**
 * A response as yoga's result processors build it, kept as plain values until it is written, and
 * written as @whatwg-node/server writes the Response those processors make: its status text the
 * standard one, a content-length added to a text body, one writeHead with the plain headers.
 */
class PlainResponse {
  readonly status: number;
  readonly statusText: string;
  readonly body: string | null;
  readonly init: Record<string, string>;
  private materialized: Headers | undefined;
  constructor(
    body: string | null,
    init: { status?: number; statusText?: string; headers?: Record<string, string> } = {},
    private readonly HeadersClass: typeof Headers,
  ) {
    this.body = body;
    this.status = init.status || 200;
    this.statusText = init.statusText || STATUS_CODES[this.status] || 'OK';
    this.init = { ...init.headers };
    if (body !== null && !Object.keys(this.init).some((name) => name.toLowerCase() === 'content-length')) {
      this.init['content-length'] = String(Buffer.byteLength(body));
    }
  }
  /** Real headers, made only when a hook asks for them (they are then what is written). */
  get headers(): Headers {
    this.materialized ??= new this.HeadersClass(this.init);
    return this.materialized;
  }
  write(res: ServerResponse): void {
    if (this.materialized) {
      this.materialized.forEach((value, key) => res.setHeader(key, value));
      res.writeHead(this.status, this.statusText);
    } else {
      res.writeHead(this.status, this.statusText, this.init);
    }
    // One call with the body: Node then sends the head and the body in one write.
    if (this.body !== null) res.end(this.body);
    else res.end();
  }
}

export function createFastPath(options: FastPathOptions): FastPath {
  let server: YogaServer<Record<string, unknown>, Record<string, unknown>> | undefined;
  let onRequest: Hook[] = [];
  let onResponse: Hook[] = [];
  let onResultProcess: Hook[] = [];
  let fetchAPI: Record<string, unknown> = {};
  let plainFetchAPI: Record<string, unknown> = {};
  const { endpoint, fallback } = options;
  let answered = 0;

  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      // `plugins` is protected in yoga's types; it is the list yoga and its server adapter run.
      const plugins = (yoga as unknown as { plugins: (Hooks | undefined | false)[] }).plugins.filter((p): p is Hooks => !!p);
      // A hook after execution could fail a request whose operation already ran: yoga's alone then.
      if (plugins.some((p) => p.onExecutionResult)) return;
      server = yoga;
      const hooks = (name: keyof Hooks) => plugins.flatMap((p) => (p[name] ? [p[name].bind(p)] : []));
      onRequest = hooks('onRequest');
      onResponse = hooks('onResponse');
      onResultProcess = hooks('onResultProcess');
      fetchAPI = yoga.fetchAPI;
      const HeadersClass = yoga.fetchAPI.Headers;
      plainFetchAPI = {
        ...fetchAPI,
        Response: function PlainResponseOf(body: string | null, init?: ConstructorParameters<typeof PlainResponse>[1]) {
          return new PlainResponse(body, init, HeadersClass);
        },
      };
    },
  };

  function eligible(req: IncomingMessage): boolean {
    const h = req.headers;
    if (h.origin !== undefined || h.upgrade !== undefined) return false;
    if (h.accept !== undefined && STREAMING_ACCEPT.test(h.accept)) return false;
    if (req.method === 'GET')
      return req.url!.startsWith(`${endpoint}?`) && h['content-length'] === undefined && h['transfer-encoding'] === undefined;
    if (req.method !== 'POST' || req.url !== endpoint) return false;
    if (h['content-type'] === undefined || !JSON_TYPE.test(h['content-type'])) return false;
    if (h['transfer-encoding'] !== undefined || h['content-length'] === undefined || !/^\d{1,9}$/.test(h['content-length'])) return false;
    const length = Number(h['content-length']);
    return length > 0 && length <= FAST_BODY_BYTES;
  }

  /** Yoga answers instead; a body already read is handed over as the node adapter accepts it. */
  function toYoga(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    if (body) (req as IncomingMessage & { body?: Buffer }).body = body;
    fallback(req, res);
  }

  function requestFor(req: IncomingMessage, json: unknown, text: string | undefined) {
    const HeadersClass = fetchAPI.Headers as new (init: IncomingHttpHeaders) => Headers;
    return {
      method: req.method!,
      url: `http://${req.headers.host ?? 'localhost'}${req.url}`,
      headers: new HeadersClass(req.headers),
      body: null,
      signal: NEVER_ABORTED,
      json: () => Promise.resolve(json),
      text: () => Promise.resolve(text ?? ''),
    };
  }

  /** The answer, or undefined when yoga must answer instead (nothing has been executed then). */
  async function answer(
    request: ReturnType<typeof requestFor>,
    serverContext: Record<string, unknown>,
  ): Promise<PlainResponse | undefined> {
    const yoga = server!;
    let early: unknown;
    let handlerChanged = false;
    for (const hook of onRequest) {
      const done = hook({
        request,
        setRequest: () => (handlerChanged = true),
        serverContext,
        fetchAPI,
        url: lazyUrl(request.url, endpoint),
        requestHandler: undefined,
        setRequestHandler: () => (handlerChanged = true),
        endResponse: (response: unknown) => (early = response),
      });
      if (isPromise(done)) await done;
      if (early || handlerChanged) return undefined;
    }
    let parsed;
    let result: unknown;
    try {
      // yoga's types want a Request: the hooks and parsers read only what requestFor provides.
      const asRequest = request as unknown as Request;
      parsed = await yoga.parseRequest(asRequest, serverContext as never);
      if (parsed.response || !parsed.requestParserResult) return undefined;
      // Throws only from onParams hooks (its checks of the parameters), before execution.
      result = await yoga.getResultForParams({ params: parsed.requestParserResult as never, request: asRequest }, serverContext);
    } catch {
      return undefined;
    }

    // As yoga's processResult: the hooks choose the processor by the Accept header.
    let processor: ResultProcessor | undefined;
    let mediaType = '*/*';
    const acceptableMediaTypes: string[] = [];
    for (const hook of onResultProcess) {
      const done = hook({
        request,
        acceptableMediaTypes,
        result,
        setResult: (next: unknown) => (result = next),
        resultProcessor: processor,
        setResultProcessor: (next: ResultProcessor, type: string) => {
          processor = next;
          mediaType = type;
        },
        serverContext,
      });
      if (isPromise(done)) await done;
    }
    let response: unknown;
    if (!processor) {
      response = new PlainResponse(
        null,
        { status: 406, statusText: 'Not Acceptable', headers: { accept: acceptableMediaTypes.join('; charset=utf-8, ') } },
        fetchAPI.Headers as typeof Headers,
      );
    } else {
      // Only the regular JSON processor is reachable (streaming Accept headers went to yoga).
      if (processor !== (processRegularResult as unknown)) throw new Error('fast path: a streaming result processor was chosen');
      response = await processor(result, plainFetchAPI, mediaType);
    }
    for (const hook of onResponse) {
      const done = hook({ request, response, serverContext, setResponse: (next: unknown) => (response = next), fetchAPI });
      if (isPromise(done)) await done;
    }
    if (!(response instanceof PlainResponse)) throw new Error('fast path: a hook replaced the response');
    return response;
  }

  function run(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    let json: unknown;
    let text: string | undefined;
    if (body) {
      text = body.toString('utf8');
      try {
        json = JSON.parse(text);
      } catch {
        // yoga words the refusal (400, "POST body sent invalid JSON.").
        return toYoga(req, res, body);
      }
    }
    const serverContext = { req, res, waitUntil: (p: Promise<unknown>) => void p.catch(() => {}) };
    answer(requestFor(req, json, text), serverContext)
      .then((response) => {
        if (!response) return toYoga(req, res, body);
        answered++;
        response.write(res);
      })
      // Also what writing the answer throws: never an unhandled rejection (it would end the process).
      .catch((err: unknown) => {
        console.error('graphql fast path failed:', err);
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(500);
          res.end();
        }
      });
  }

  return {
    plugin,
    answered: () => answered,
    handle(req, res) {
      if (!server || !eligible(req)) return false;
      if (req.method === 'GET') {
        run(req, res, undefined);
        return true;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => run(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      req.once('error', () => res.destroy());
      return true;
    },
  };
}
