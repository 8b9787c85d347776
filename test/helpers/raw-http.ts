// HTTP/1.1 over a bare socket (node:net): a request is sent byte for byte as given (malformed
// ones included) and the answer parsed here, so nothing between the test and the server fixes
// up either side. One connection per request.
import { connect } from 'node:net';
import { EVENT_DEADLINE_MS } from './wait';

export interface RawAnswer {
  /** e.g. 200; 0 when no status line came back. */
  status: number;
  statusText: string;
  /** Header names lower-cased, in the order sent. */
  headers: [string, string][];
  /** The body with chunked framing removed; for a stream, up to its first complete event. */
  body: Buffer;
  /** What ended the read early: "timeout", "reset"... (undefined: a complete answer). */
  cut?: string;
}

export interface RawRequestParts {
  method: string;
  /** The request target, sent as is (`/graphql?query=...`). */
  target: string;
  /** Sent in this order; the Host header too (none is added). */
  headers: [string, string][];
  body?: Buffer | string;
  /** Content-Length added from the body unless false (or the headers name one). */
  contentLength?: boolean;
}

/** The bytes of a request; a body is framed by a Content-Length unless told otherwise. */
export function requestBytes(parts: RawRequestParts): Buffer {
  const body = parts.body === undefined ? Buffer.alloc(0) : Buffer.from(parts.body);
  const headers = [...parts.headers];
  const named = headers.some(([name]) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding');
  if (parts.body !== undefined && parts.contentLength !== false && !named) headers.push(['Content-Length', String(body.length)]);
  const head = `${parts.method} ${parts.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** A header of an answer by its lower-case name (the first, if sent more than once). */
export const header = (answer: Pick<RawAnswer, 'headers'>, name: string) => answer.headers.find(([n]) => n === name)?.[1];

/**
 * The first complete event of a stream, once it is in: an SSE event that is not a comment
 * (`:` keep-alive lines are sent on a timer, so when they come is not part of the answer), or
 * the first part of a multipart/mixed answer. Undefined while it is incomplete.
 */
function firstEvent(contentType: string, text: string): string | undefined {
  if (contentType.startsWith('text/event-stream')) {
    const events = text.split('\n\n');
    events.pop(); // the unfinished tail
    const first = events.find((e) => e.split('\n').some((line) => line !== '' && !line.startsWith(':')));
    return first === undefined ? undefined : `${first.replace(/^:.*\n?/gm, '')}\n\n`;
  }
  // multipart/mixed: a part is complete once the next delimiter (or the closing one) follows it.
  const delimiter = text.indexOf('\r\n---', text.indexOf('---') + 3);
  return text.indexOf('---') >= 0 && delimiter >= 0 ? text.slice(0, delimiter + 5) : undefined;
}

const isStream = (contentType: string | undefined) => !!contentType && /^(text\/event-stream|multipart\/mixed)/i.test(contentType);

interface Framing {
  /** Bytes of the body received so far, framing removed; `done` once the answer is complete. */
  decode(raw: Buffer): { body: Buffer; done: boolean };
}

function framing(answer: Pick<RawAnswer, 'headers' | 'status'>, method: string): Framing {
  const length = header(answer, 'content-length');
  if (method === 'HEAD' || answer.status === 204 || answer.status === 304 || (answer.status >= 100 && answer.status < 200)) {
    return { decode: () => ({ body: Buffer.alloc(0), done: true }) };
  }
  if (header(answer, 'transfer-encoding')?.toLowerCase().includes('chunked')) {
    return {
      decode(raw) {
        const parts: Buffer[] = [];
        let at = 0;
        for (;;) {
          const eol = raw.indexOf('\r\n', at);
          if (eol < 0) return { body: Buffer.concat(parts), done: false };
          const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
          if (Number.isNaN(size)) return { body: Buffer.concat(parts), done: true };
          // The last chunk: complete once the (empty) trailer section ends.
          if (size === 0) return { body: Buffer.concat(parts), done: raw.indexOf('\r\n\r\n', eol) >= 0 };
          if (raw.length < eol + 2 + size + 2) {
            parts.push(raw.subarray(eol + 2, Math.min(raw.length, eol + 2 + size)));
            return { body: Buffer.concat(parts), done: false };
          }
          parts.push(raw.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
      },
    };
  }
  if (length !== undefined) {
    const n = Number(length);
    return { decode: (raw) => ({ body: raw.subarray(0, n), done: raw.length >= n }) };
  }
  // Neither: the body runs to the end of the connection.
  return { decode: (raw) => ({ body: raw, done: false }) };
}

/**
 * Sends `bytes` to 127.0.0.1:`port` and reads one answer: complete, or cut at the first event of
 * a stream, at the connection's end, or at `deadlineMs` (then `cut: "timeout"`).
 */
export function sendRaw(port: number, bytes: Buffer, method: string, deadlineMs = EVENT_DEADLINE_MS): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let head: Omit<RawAnswer, 'body'> | undefined;
    let bodyStart = 0;
    let frame: Framing | undefined;
    let settled = false;

    const finish = (cut?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (!head) return resolve({ status: 0, statusText: '', headers: [], body: received, cut: cut ?? 'no status line' });
      let { body, done } = frame!.decode(received.subarray(bodyStart));
      const contentType = header(head, 'content-type');
      if (isStream(contentType)) {
        const event = firstEvent(contentType!.toLowerCase(), body.toString('utf8'));
        if (event !== undefined) [body, done] = [Buffer.from(event), true];
      }
      resolve({ ...head, body, ...(done || cut === undefined ? {} : { cut }) });
    };
    const timer = setTimeout(() => finish('timeout'), deadlineMs);

    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!head) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
        const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
        head = {
          status: match ? Number(match[1]) : 0,
          statusText: match?.[2] ?? statusLine,
          headers: lines.map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
          }),
        };
        bodyStart = end + 4;
        frame = framing(head, method);
      }
      const { body, done } = frame!.decode(received.subarray(bodyStart));
      const contentType = header(head, 'content-type');
      if (done || (isStream(contentType) && firstEvent(contentType!.toLowerCase(), body.toString('utf8')) !== undefined)) finish();
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNRESET' ? 'reset' : (err.code ?? 'error')));
    socket.write(bytes);
  });
}
