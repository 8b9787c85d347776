// The client side of bench/subscriptions.ts, in a process of its own (so that the gateway's memory
// is measured alone): opens the WebSocket subscribers, sends messages through the emulator and
// times each update's arrival at every subscriber of its receiver.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface ClientsPlan {
  gatewayUrl: string;
  emulatorUrl: string;
  appId: string;
  users: { id: number; token: string }[];
  sender: { id: number; token: string };
  subscribers: number;
  messages: number;
  messageGapMs: number;
  intervalMs: number;
}

export type ToClients = { type: 'plan'; plan: ClientsPlan } | { type: 'send' } | { type: 'close' };
export type FromClients =
  | { type: 'subscribed'; ms: number }
  | { type: 'delays'; delays: number[]; expected: number; sends: number[] }
  | { type: 'closed' }
  | { type: 'failed'; error: string };

const QUERY = 'subscription { unreadCounts { conversationId unreadCount } }';
const CONNECT_BATCH = 100;
const now = () => performance.timeOrigin + performance.now();

function post(message: FromClients) {
  process.send!(message);
}

/** Total unread messages of a user, from one unreadCounts result. */
function total(data: unknown): number {
  const list = (data as { unreadCounts?: { unreadCount: number }[] } | null)?.unreadCounts ?? [];
  return list.reduce((sum, c) => sum + c.unreadCount, 0);
}

let plan: ClientsPlan;
const clients: Client[] = [];
/** Per user: the unread total each subscriber last saw, and when each sent message was sent. */
const seen: number[][] = [];
const sentAt: number[][] = [];
const delays: number[] = [];

async function subscribe(): Promise<void> {
  const started = now();
  let ready = 0;
  let resolveAll!: () => void;
  let rejectAll!: (e: Error) => void;
  const all = new Promise<void>((resolve, reject) => {
    resolveAll = resolve;
    rejectAll = reject;
  });
  plan.users.forEach((_, u) => {
    seen[u] = [];
    sentAt[u] = [];
  });
  for (let i = 0; i < plan.subscribers; i += CONNECT_BATCH) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < Math.min(i + CONNECT_BATCH, plan.subscribers); j++) {
      const u = j % plan.users.length;
      const user = plan.users[u]!;
      const slot = seen[u]!.push(-1) - 1;
      const client = createClient({
        url: `${plan.gatewayUrl.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { app_id: plan.appId, 'access-token': user.token },
        retryAttempts: 0,
      });
      clients.push(client);
      batch.push(
        new Promise<void>((connected) => {
          const off = client.on('connected', () => {
            off();
            connected();
          });
        }),
      );
      client.subscribe(
        { query: QUERY },
        {
          next: (result) => {
            const arrived = now();
            const count = total(result.data);
            const before = seen[u]![slot]!;
            seen[u]![slot] = count;
            if (before === -1) {
              if (++ready === plan.subscribers) resolveAll();
              return;
            }
            // The k-th message sent to this user raised its total to k: all up to `count` arrived now.
            for (let k = before; k < count; k++) {
              const sent = sentAt[u]![k];
              if (sent !== undefined) delays.push(arrived - sent);
            }
          },
          error: (e) => rejectAll(new Error(`subscriber ${j} failed: ${JSON.stringify(e instanceof Error ? e.message : e)}`)),
          complete: () => {},
        },
      );
    }
    await Promise.all(batch);
  }
  await all;
  post({ type: 'subscribed', ms: now() - started });
}

async function send(): Promise<void> {
  const targets = Array.from({ length: plan.messages }, (_, i) => (i * 7919) % plan.users.length);
  const sends: number[] = [];
  for (const u of targets) {
    const user = plan.users[u]!;
    const started = now();
    sentAt[u]!.push(started);
    const res = await fetch(`${plan.emulatorUrl}/message/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: plan.appId, 'access-token': plan.sender.token },
      body: JSON.stringify({ content_type: 0, content: 'bench', attachment: '', targets: [user.id], type: 1 }),
    });
    const reply = (await res.json()) as { code: number };
    if (reply.code !== 200) throw new Error(`send failed: ${reply.code}`);
    sends.push(now() - started);
    await new Promise((resolve) => setTimeout(resolve, plan.messageGapMs));
  }
  const perUser = plan.subscribers / plan.users.length;
  const expected = plan.messages * perUser;
  // Bounded: the last message has three intervals (and 10 s at most) to reach everyone.
  const deadline = now() + Math.min(10_000, 3 * plan.intervalMs);
  while (delays.length < expected && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  post({ type: 'delays', delays, expected, sends });
}

process.on('message', (message: ToClients) => {
  const run = async () => {
    if (message.type === 'plan') {
      plan = message.plan;
      await subscribe();
    } else if (message.type === 'send') {
      await send();
    } else {
      await Promise.all(clients.map((c) => c.dispose()));
      post({ type: 'closed' });
      process.disconnect();
    }
  };
  run().catch((err: unknown) => post({ type: 'failed', error: err instanceof Error ? err.message : String(err) }));
});
