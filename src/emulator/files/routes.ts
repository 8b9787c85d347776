// Routes outside the table: the object storage the upload targets point at, in the manner of
// Aliyun OSS. POST (multipart, PostObject) or PUT (raw bytes, PutObject; the fields in the query)
// /_storage/upload stores a file under its signed key; GET /_storage/object/<key> serves it back
// (no token: like an object storage URL, the unguessable key is the capability). Answers are the
// storage's own, never the IM envelope: with a callback, the callback server's JSON; without one,
// what OSS answers (success_action_status: 204 by default, 200 empty, 201 XML; PUT 200 empty);
// refusals an OSS XML <Error>.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawRoute } from '../handler';
import type { State } from '../state';
import { readCallback, runCallback, type UploadCallback } from './callback';
import type { UploadGrant } from './signing';
import { STORAGE_OBJECT_PREFIX, STORAGE_UPLOAD_PATH } from './state';
import { noSuchKey, ossRequestId, sendStorageError, StorageError } from './storage-errors';
import { streamOf } from './store';
import { type Received, receiveMultipart, receivePut, type Verify } from './upload';

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://emulator');

/** What an upload's fields won: the policy's grant, the callback to run and the status asked for. */
interface StorageGrant extends UploadGrant {
  callback: UploadCallback | undefined;
  successStatus: string | undefined;
}

function verifier(state: State, baseUrl: string): Verify<StorageGrant> {
  return (fields) => {
    const grant = state.files.signer.verify(fields, state.clock());
    return {
      key: grant.key,
      maxBytes: Math.min(grant.maxBytes, state.options.maxUploadBytes),
      callback: readCallback(fields.callback, baseUrl),
      successStatus: fields.success_action_status,
    };
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, text = ''): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

const postResponse = (baseUrl: string, key: string, etag: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse>\n' +
  `  <Bucket>im-emulator</Bucket>\n  <Location>${baseUrl}${STORAGE_OBJECT_PREFIX}${key}</Location>\n` +
  `  <Key>${key}</Key>\n  <ETag>${etag}</ETag>\n</PostResponse>\n`;

/** Stores what arrived and answers as the storage does. */
async function accept(
  res: ServerResponse,
  state: State,
  baseUrl: string,
  method: 'POST' | 'PUT',
  receiving: Promise<Received<StorageGrant>>,
) {
  const { grant, chunks, size, contentType } = await receiving;
  const { etag } = state.files.store(grant.key, chunks, size, contentType);
  const headers = { etag, 'x-oss-request-id': ossRequestId() };
  if (grant.callback) {
    const answer = runCallback(grant.callback, { key: grant.key, size, contentType, etag });
    return send(res, 200, { ...headers, 'content-type': 'application/json' }, answer);
  }
  if (method === 'PUT' || grant.successStatus === '200') return send(res, 200, headers);
  if (grant.successStatus === '201') {
    return send(res, 201, { ...headers, 'content-type': 'application/xml' }, postResponse(baseUrl, grant.key, etag));
  }
  send(res, 204, headers);
}

/** A storage route: its refusals become the storage's XML errors. */
function storageRoute(method: RawRoute['method'], prefix: string, handle: RawRoute['handle']): RawRoute {
  return {
    method,
    prefix,
    handle: async (req, res, state, baseUrl) => {
      try {
        await handle(req, res, state, baseUrl);
      } catch (err) {
        if (!(err instanceof StorageError)) throw err;
        sendStorageError(res, err);
      }
    },
  };
}

function uploadRoute(
  method: 'POST' | 'PUT',
  receive: (req: IncomingMessage, verify: Verify<StorageGrant>, state: State) => Promise<Received<StorageGrant>>,
): RawRoute {
  return storageRoute(method, STORAGE_UPLOAD_PATH, async (req, res, state, baseUrl) => {
    if (pathOf(req).pathname !== STORAGE_UPLOAD_PATH) {
      req.resume();
      throw noSuchKey(pathOf(req).pathname);
    }
    await accept(res, state, baseUrl, method, receive(req, verifier(state, baseUrl), state));
  });
}

export const fileRoutes: RawRoute[] = [
  uploadRoute('POST', (req, verify, state) => receiveMultipart(req, verify, state.options.maxUploadBytes)),
  uploadRoute('PUT', (req, verify) => receivePut(req, verify, Object.fromEntries(pathOf(req).searchParams))),
  storageRoute('GET', STORAGE_OBJECT_PREFIX, async (req, res, state) => {
    req.resume();
    const key = decodeURIComponent(pathOf(req).pathname.slice(STORAGE_OBJECT_PREFIX.length));
    const object = state.files.objects.get(key);
    if (!object) throw noSuchKey(key);
    res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.size, etag: object.etag });
    const stream = streamOf(object);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }),
];
