// The service's message callback in tests: document-6 bodies, a POST to a gateway's callback
// route, a sink that records what the receiver hands on, and the route's counters from /metrics.
import type { CallbackMessage, CallbackSink } from '../../src/subscriptions/callback-message';

export const CALLBACK_SECRET = 'test-callback-secret';

let nextId = 10n ** 18n;
/** A message ID beyond 2^53, new each call. */
export const newMsgId = () => (nextId += 7n).toString();

/** A one-to-one TEXT message's callback body (document 6), with `overrides`. */
export function callbackBody(appId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appId,
    msgId: newMsgId(),
    from: { uid: '6632092019520', deviceSN: 3 },
    to: { uid: '6726580510113', deviceSN: 0 },
    type: 'CHAT',
    ctype: 'TEXT',
    content: 'hello',
    config: '',
    attachment: '',
    ext: '',
    timestamp: String(Date.now()),
    ...overrides,
  };
}

/** POSTs a callback (an object as JSON, or text as is) with the secret unless `signature` says otherwise. */
export async function postCallback(
  url: string,
  body: Record<string, unknown> | string,
  o: { signature?: string | null; path?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  const signature = o.signature === undefined ? CALLBACK_SECRET : o.signature;
  const res = await fetch(`${url}${o.path ?? '/im/callback'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { signature }), ...o.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** A sink that keeps every message it is handed. */
export function recordingSink(): CallbackSink & { messages: CallbackMessage[] } {
  const messages: CallbackMessage[] = [];
  return { messages, deliver: (m) => void messages.push(m) };
}

/** The value of one series on a gateway's /metrics (0 when absent); `labels` as printed, e.g. `type="CHAT"`. */
export async function metric(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
