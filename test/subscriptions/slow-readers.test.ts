// SSE and multipart subscribers that stop reading were never dropped: 20 of them held ~3.1 MiB
// each beyond the kernel's buffer. Now a subscriber whose unread backlog passes
// HTTP_SUBSCRIBER_BACKLOG_BYTES (here 256 KiB) is dropped: its subscription ends (the hub lets go
// of it), its queue is emptied, and when it reads again it finds the events it had taken, then one
// SLOW_CONSUMER error and the end of the answer. A reader that keeps up, beside it, gets every
// event. Each event selects its message's content 20 times (~100 KB): the kernel's buffers (~4 MB
// on loopback) fill within a few dozen messages.
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogger } from '../../src/log/logger';
import { startStack, type Stack } from '../helpers/stack';
import { sseFeed } from '../helpers/subscriptions/clients';
import type { EventData } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { identity } from '../helpers/users';
import { captureLog } from '../helpers/log-capture';

const BACKLOG_BYTES = 256 * 1024;
/** The emulator's largest content (src/emulator/NOTES.md). */
const CONTENT = 'x'.repeat(5_000);
/** Bounds the test's load: past this many messages without a drop, it fails. */
const MAX_MESSAGES = 1_000;
const BATCH = 10;
/** conversationEvents, each event's content twenty times over. */
const LARGE_EVENTS = `subscription($with: ID!) { conversationEvents(with: $with) {
  __typename ... on MessageReceived { message { ${Array.from({ length: 20 }, (_, i) => `c${i}: content`).join(' ')} } } } }`;

let stack: Stack;
const log = captureLog('warn');
beforeAll(async () => {
  setLogger(log.logger);
  stack = await startStack({ POLL_INTERVAL_MS: '50', HTTP_SUBSCRIBER_BACKLOG_BYTES: String(BACKLOG_BYTES) });
});
afterAll(() => stack.stop());

const dropped = () => log.entries.filter((e) => e.msg.startsWith('subscription over HTTP dropped'));

type Result = { data?: EventData; errors?: { extensions?: Record<string, unknown> }[] };

/** How each transport's answer reads: its results, and whether it ended as the transport ends a subscription. */
const TRANSPORTS = {
  sse: {
    accept: 'text/event-stream',
    parse(text: string): { events: Result[]; completed: boolean } {
      const blocks = text.split('\n\n').filter((b) => b.startsWith('event:'));
      const events = blocks.filter((b) => b.startsWith('event: next')).map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)) as Result);
      return { events, completed: blocks.at(-1)?.startsWith('event: complete') ?? false };
    },
  },
  multipart: {
    accept: 'multipart/mixed;subscriptionSpec=1.0, application/json',
    parse(text: string): { events: Result[]; completed: boolean } {
      const bodies = text.split('--graphql').map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim());
      const parts = bodies.filter((b) => b.startsWith('{')).map((b) => JSON.parse(b) as { payload?: Result });
      return { events: parts.flatMap((p) => (p.payload ? [p.payload] : [])), completed: text.endsWith('--graphql--\r\n') };
    },
  },
} as const;

/** A subscription whose reader stops reading once the answer has started (its socket paused). */
function pausedReader(accept: string, headers: Record<string, string>, variables: Record<string, unknown>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, ...headers },
    });
    req.once('response', (res) => {
      res.pause();
      resolve(res);
    });
    req.once('error', reject);
    req.end(JSON.stringify({ query: LARGE_EVENTS, variables }));
  });
}

/** The rest of a paused answer, read to its end. */
async function readAll(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.resume();
  await new Promise<void>((resolve, reject) => res.once('end', resolve).once('error', reject));
  return text;
}

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('a subscriber over %s that stops reading', (transport) => {
  it('is dropped with a final SLOW_CONSUMER event once its backlog passes the bound; a reader beside it gets every event', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const variables = { with: String(peer.id) };
    const before = dropped().length;
    const slow = await pausedReader(TRANSPORTS[transport].accept, identity(stack.emu, me), variables);
    const steady = sseFeed<EventData>(stack.url, identity(stack.emu, me), LARGE_EVENTS, variables);
    try {
      await baselineSet(stack.emu, peer);
      let sent = 0;
      while (dropped().length === before && sent < MAX_MESSAGES) {
        for (let i = 0; i < BATCH; i++, sent++) {
          await stack.emu.rest('POST', '/message/send', {
            token: peer.token,
            body: { content_type: 0, content: CONTENT, attachment: '', targets: [me.id], type: 1 },
          });
        }
        // The steady reader keeps up as the messages go (and so never passes the bound itself);
        // its events went to the slow reader's queue at the same time.
        for (let i = 0; i < BATCH; i++) expect(JSON.stringify((await steady.next()).errors)).toBeUndefined();
      }
      expect(dropped()).toHaveLength(before + 1);
      expect(dropped()[before]!.bytes).toBeGreaterThan(BACKLOG_BYTES);

      const { events, completed } = TRANSPORTS[transport].parse(await readAll(slow));
      const last = events.at(-1)!;
      expect(last.errors?.[0]?.extensions).toMatchObject({ code: 'SLOW_CONSUMER', maxBytes: BACKLOG_BYTES });
      // Everything before it is an event it was sent in order; what waited past the bound is gone.
      expect(events.slice(0, -1).every((e) => e.data?.conversationEvents.__typename === 'MessageReceived')).toBe(true);
      expect(events.length - 1).toBeLessThan(sent);
      expect(completed).toBe(true);
    } finally {
      slow.destroy();
      await steady.close();
    }
  });
});
