// The upstream's response envelope {code, data, message} (plus top-level extras on list
// endpoints), read exactly: integers beyond 2^53 keep every digit.
import { parseJson } from './json';
import { UpstreamError } from './errors';
import { redact } from './secrets';

export interface Envelope {
  code: number;
  data?: unknown;
  message?: unknown;
  [extra: string]: unknown;
}

// Long upstream messages (a stack trace, an HTML page quoted back) are cut to this many characters.
const MAX_MESSAGE = 300;

type Read = { envelope: Envelope } | { envelope?: undefined; problem: 'empty body' | 'body is not JSON' | 'body is not an envelope' };

function read(text: string): Read {
  if (text === '') return { problem: 'empty body' };
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return { problem: 'body is not JSON' };
  }
  const isEnvelope = value !== null && typeof value === 'object' && typeof (value as { code?: unknown }).code === 'number';
  return isEnvelope ? { envelope: value as Envelope } : { problem: 'body is not an envelope' };
}

/** The envelope in `text`, or undefined when the text is not JSON or not an envelope. */
export function envelopeIn(text: string): Envelope | undefined {
  return read(text).envelope;
}

interface Answer {
  endpoint: string;
  status: number;
  text: string;
  secrets: readonly string[];
}

/** The successful envelope of an answer, or the UpstreamError it amounts to. */
export function openEnvelope({ endpoint, status, text, secrets }: Answer): Envelope {
  const answer = read(text);
  const { envelope } = answer;
  if (status < 200 || status >= 300) {
    throw new UpstreamError({ endpoint, kind: 'http', httpStatus: status, ...envelopeError(envelope, secrets) });
  }
  if (!envelope) {
    throw new UpstreamError({ endpoint, kind: 'invalid-body', httpStatus: status, detail: answer.problem });
  }
  if (envelope.code !== 200) {
    throw new UpstreamError({ endpoint, kind: 'envelope', httpStatus: status, ...envelopeError(envelope, secrets) });
  }
  return envelope;
}

export function envelopeError(envelope: Envelope | undefined, secrets: readonly string[]): { code?: number; upstreamMessage?: string } {
  if (!envelope) return {};
  const message = envelope.message;
  if (typeof message !== 'string' || message === '') return { code: envelope.code };
  const clean = redact(message, secrets);
  return {
    code: envelope.code,
    upstreamMessage: clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE)}…` : clean,
  };
}
