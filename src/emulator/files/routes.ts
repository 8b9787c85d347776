// Routes outside the table: the storage the upload targets point at. POST (multipart) or PUT
// /_storage/upload stores a file under its signed key; GET /_storage/object/<key> serves it back
// (no token: like an object storage URL, the unguessable key is the capability).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifyJson } from '../../rest/json';
import { Code, ImError } from '../errors';
import type { RawRoute } from '../handler';
import type { State } from '../state';
import { downloadUrl, STORAGE_OBJECT_PREFIX, STORAGE_UPLOAD_PATH } from './state';
import { streamOf } from './store';
import { type Received, receiveMultipart, receivePut, type Verify } from './upload';

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://emulator');

function notFound(what: string): ImError {
  return new ImError(Code.INVALID_PARAMETER, `invalid parameter key: no ${what}`, 404);
}

function verifier(state: State): Verify {
  return (fields) => {
    const grant = state.files.signer.verify(fields, state.clock());
    return { key: grant.key, maxBytes: Math.min(grant.maxBytes, state.options.maxUploadBytes) };
  };
}

/** Stores what arrived and answers an envelope naming the key and where to download it. */
async function accept(res: ServerResponse, state: State, baseUrl: string, receiving: Promise<Received>): Promise<void> {
  const { key, chunks, size, contentType } = await receiving;
  state.files.store(key, chunks, size, contentType);
  const text = stringifyJson({
    code: Code.OK,
    data: { key, size, content_type: contentType, download_url: downloadUrl(baseUrl, key) },
    message: null,
  });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function uploadRoute(method: 'POST' | 'PUT', receive: (req: IncomingMessage, state: State) => Promise<Received>): RawRoute {
  return {
    method,
    prefix: STORAGE_UPLOAD_PATH,
    handle: async (req, res, state, baseUrl) => {
      if (pathOf(req).pathname !== STORAGE_UPLOAD_PATH) {
        req.resume();
        throw notFound('such storage path');
      }
      await accept(res, state, baseUrl, receive(req, state));
    },
  };
}

export const fileRoutes: RawRoute[] = [
  uploadRoute('POST', (req, state) => receiveMultipart(req, verifier(state), state.options.maxUploadBytes)),
  uploadRoute('PUT', (req, state) => receivePut(req, verifier(state), Object.fromEntries(pathOf(req).searchParams))),
  {
    method: 'GET',
    prefix: STORAGE_OBJECT_PREFIX,
    handle: async (req, res, state) => {
      req.resume();
      const key = decodeURIComponent(pathOf(req).pathname.slice(STORAGE_OBJECT_PREFIX.length));
      const object = state.files.objects.get(key);
      if (!object) throw notFound(`file ${key}`);
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.size });
      const stream = streamOf(object);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    },
  },
];
