// The depth of what a request asks the IM service: the number of REST round trips one after another.
//
// A proxy in front of the emulator answers in rounds: it forwards each request at once but holds
// every answer until the gateway has gone quiet (no new request for `quietMs`, and every answer
// held is in), then releases them all together. A call the gateway could have made beside the
// others arrives in the same round; one that waits for an answer arrives in a later round. So the
// log's chains (each call starting after the previous one ended) count round trips the way a
// distant service would make a client wait for them, without timing anything that matters: the
// quiet period only has to outlast the gateway's own work between two calls of one round.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { close, listen, sendOn } from './proxy';

/** One REST call as the proxy saw it; `start` and `end` are ticks of the proxy's logical clock. */
export interface LoggedCall {
  method: string;
  /** Path without the query. */
  path: string;
  start: number;
  /** Undefined while held. */
  end?: number;
}

export interface DepthProbe {
  /** Where the gateway reaches the service through the proxy. */
  url: string;
  /** Forgets the calls logged so far: what follows is measured. */
  mark(): void;
  /** The calls since the mark, oldest first. */
  calls(): LoggedCall[];
  /** The longest chain of calls since the mark, each starting after the previous one ended. */
  depth(): number;
  /** The calls since the mark by round trip (the depth at which each one ends its chain), for messages. */
  rounds(): string[][];
  stop(): Promise<void>;
}

interface Held {
  call: LoggedCall;
  answer: Promise<Answer>;
  res: ServerResponse;
}

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Depth of each call: 1 + the deepest call that ended before it started. */
function chainDepths(calls: readonly LoggedCall[]): number[] {
  const depths: number[] = [];
  calls.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) {
      const end = calls[j]!.end;
      if (end !== undefined && end < call.start) before = Math.max(before, depths[j]!);
    }
    depths.push(before + 1);
  });
  return depths;
}

async function fetchAnswer(target: string, req: IncomingMessage): Promise<Answer> {
  const upstream = await sendOn(target, req);
  return {
    status: upstream.status,
    contentType: upstream.headers.get('content-type') ?? 'application/json',
    body: Buffer.from(await upstream.arrayBuffer()),
  };
}

/**
 * A round-answering proxy in front of `target`. `quietMs`: how long the gateway must send nothing
 * before a round's answers go out (DEPTH_QUIET_MS overrides it, for a very loaded machine).
 */
export async function startDepthProbe(target: string, quietMs = Number(process.env.DEPTH_QUIET_MS ?? 40)): Promise<DepthProbe> {
  const log: LoggedCall[] = [];
  let from = 0;
  let tick = 0;
  let held: Held[] = [];
  let lastArrival = 0;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void releaseWhenQuiet(), ms);
  };

  async function releaseWhenQuiet(): Promise<void> {
    timer = undefined;
    const quietFor = performance.now() - lastArrival;
    if (quietFor < quietMs) return schedule(quietMs - quietFor);
    const seen = lastArrival;
    const round = held;
    await Promise.allSettled(round.map((h) => h.answer));
    // Let sockets be read once more: a request already sent must join this round, not the next.
    await new Promise((resolve) => setImmediate(resolve));
    if (lastArrival !== seen || round.length !== held.length) return schedule(quietMs);
    held = [];
    const end = ++tick;
    for (const h of round) {
      h.call.end = end;
      h.answer.then(
        (a) => {
          h.res.writeHead(a.status, { 'content-type': a.contentType });
          h.res.end(a.body);
        },
        () => h.res.destroy(),
      );
    }
  }

  const proxy = await listen((req, res) => {
    const call: LoggedCall = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, start: ++tick };
    log.push(call);
    held.push({ call, res, answer: fetchAnswer(target, req) });
    lastArrival = performance.now();
    schedule(quietMs);
  });

  const since = () => log.slice(from);
  return {
    url: proxy.url,
    mark: () => {
      from = log.length;
    },
    calls: since,
    depth: () => Math.max(0, ...chainDepths(since())),
    rounds: () => {
      const calls = since();
      const out: string[][] = [];
      chainDepths(calls).forEach((d, i) => (out[d - 1] ??= []).push(`${calls[i]!.method} ${calls[i]!.path}`));
      return out;
    },
    stop: async () => {
      if (timer) clearTimeout(timer);
      await close(proxy.server);
    },
  };
}
