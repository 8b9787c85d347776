// What a handler of one table endpoint is: validated parameters in, the endpoint's data out.
// Handlers hold only the semantics; routing, validation, auth and the envelope are server.ts's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { EndpointName, Endpoints } from '../rest/endpoints';
import type { Int64 } from '../rest/json';
import type { DataOf, ParamsOut } from '../rest/table';
import type { Actor } from './auth/actor';
import type { State } from './state';

export interface EnvelopeExtras {
  cursor?: string;
  total?: Int64;
  version?: Int64;
  msg_ids?: Int64[];
}

export interface Ctx {
  readonly state: State;
  readonly actor: Actor;
  /** The request's time, from the state's clock. */
  readonly now: number;
  /** The emulator's own origin (http://127.0.0.1:PORT), for upload and download URLs. */
  readonly baseUrl: string;
  /** The request's User-Agent ('' when absent): devices take their platform from it. */
  readonly userAgent: string;
  /** Top-level envelope fields beside `data` (cursor, total, version, msg_ids). */
  setExtras(extras: EnvelopeExtras): void;
}

/** A file answer (downloads): bytes or a stream, not an envelope. */
export class BinaryReply {
  constructor(
    readonly body: Buffer | Readable,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
    readonly status = 200,
  ) {}
}

type Awaitable<T> = T | Promise<T>;

type Handler<K extends EndpointName> = (params: ParamsOut<Endpoints[K]>, ctx: Ctx) => Awaitable<DataOf<Endpoints[K]> | BinaryReply>;

export type HandlerMap = { [K in EndpointName]?: Handler<K> };

/** Routes outside the table (upload targets, download URLs): they own the raw request. */
export interface RawRoute {
  method: 'GET' | 'PUT' | 'POST';
  /** Matches a path starting with this prefix. */
  prefix: string;
  handle(req: IncomingMessage, res: ServerResponse, state: State, baseUrl: string): Promise<void>;
}
