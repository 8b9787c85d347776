// Subscription clients over real sockets, as an app would use them: graphql-ws over WebSocket and
// GraphQL over SSE (yoga's). Each subscription is a Feed: its results in order, awaitable one by one.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { GqlReply } from '../stack';
import { EVENT_DEADLINE_MS } from '../wait';

export type Ending = { complete: true } | { error: unknown };

export class Feed<T = Record<string, unknown>> {
  readonly results: GqlReply<T>[] = [];
  private taken = 0;
  private waiters: (() => void)[] = [];
  private ended: Ending | undefined;
  readonly ending: Promise<Ending>;
  private settle!: (ending: Ending) => void;

  constructor(readonly close: () => Promise<void> | void = () => {}) {
    this.ending = new Promise((resolve) => (this.settle = resolve));
  }

  push(result: GqlReply<T>): void {
    this.results.push(result);
    this.wake();
  }

  end(ending: Ending): void {
    if (this.ended) return;
    this.ended = ending;
    this.settle(ending);
    this.wake();
  }

  /** The next result not taken yet; fails after `ms`, or when the subscription ends first. */
  async next(ms = EVENT_DEADLINE_MS): Promise<GqlReply<T>> {
    const deadline = Date.now() + ms;
    while (this.taken >= this.results.length) {
      if (this.ended) throw new Error(`subscription ended: ${JSON.stringify(this.ended, errorText)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no result within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.results[this.taken++]!;
  }

  /** Results received and not taken yet. */
  get pending(): number {
    return this.results.length - this.taken;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

const errorText = (_k: string, v: unknown) => (v instanceof Error ? v.message : v);

export const wsUrl = (origin: string) => `${origin.replace(/^http/, 'ws')}/graphql`;

/** One graphql-ws connection with the given identity (connectionParams). */
export function wsClient(
  origin: string,
  params: Record<string, string>,
): Client & { feed<T>(query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Feed<T> } {
  const client = createClient({
    url: wsUrl(origin),
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 0,
  });
  return Object.assign(client, {
    feed<T>(query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Feed<T> {
      let unsubscribe = () => {};
      const feed = new Feed<T>(() => unsubscribe());
      unsubscribe = client.subscribe<T>(
        { query, ...(variables ? { variables } : {}), ...(extensions ? { extensions } : {}) },
        {
          next: (result) => feed.push(result as GqlReply<T>),
          error: (error) => feed.end({ error }),
          complete: () => feed.end({ complete: true }),
        },
      );
      return feed;
    },
  });
}

/** A subscription over SSE (POST /graphql, accept: text/event-stream) with the given headers. */
export function sseFeed<T>(origin: string, headers: Record<string, string>, query: string, variables?: Record<string, unknown>): Feed<T> {
  return streamFeed<T>(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

/** A subscription as a browser's EventSource makes it: GET with everything in the URL, no header but accept. */
export function eventSourceFeed<T>(url: string): Feed<T> {
  return streamFeed<T>(url, { method: 'GET', headers: { accept: 'text/event-stream' } });
}

/** Reads a streamed body as text: `take` gets what arrived so far and answers what it did not use. */
export async function readStream(res: Response, take: (text: string) => string): Promise<void> {
  let text = '';
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    text = take(text + decoder.decode(value, { stream: true }));
  }
}

function streamFeed<T>(url: string, init: RequestInit): Feed<T> {
  const abort = new AbortController();
  const feed = new Feed<T>(() => abort.abort());
  void (async () => {
    try {
      const res = await fetch(url, { ...init, signal: abort.signal });
      await readStream(res, (text) => {
        let at: number;
        while ((at = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, at);
          text = text.slice(at + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .find((l) => l.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim();
          const event = field('event');
          if (event === 'next') feed.push(JSON.parse(field('data') ?? 'null') as GqlReply<T>);
          if (event === 'complete') feed.end({ complete: true });
        }
        return text;
      });
      feed.end({ error: new Error('stream closed without complete') });
    } catch (error) {
      feed.end({ error });
    }
  })();
  return feed;
}
