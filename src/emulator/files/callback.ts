// The upload callback, in the manner of Aliyun OSS: oss_body_param.callback is base64 JSON
// {callbackUrl, callbackBody, callbackBodyType}. Once the object is stored, the storage sends the
// callbackBody, its ${variables} filled in, to callbackUrl, and answers the upload with what the
// callback server answered (OSS: HTTP 200 and the callback's JSON). The callback server is the IM
// service, that is the emulator itself: the storage calls it in process, and calls no other URL.
import { invalidArgument } from './storage-errors';

/** The callbackUrl of the targets: the IM service's own (served in process, not an HTTP route). */
export const CALLBACK_PATH = '/_storage/callback';
const BUCKET = 'im-emulator';
const FORM = 'application/x-www-form-urlencoded';
// OSS's system variables, in the form body its own examples use.
const BODY = 'bucket=${bucket}&object=${object}&etag=${etag}&size=${size}&mimeType=${mimeType}';

export interface UploadCallback {
  callbackUrl: string;
  callbackBody: string;
  callbackBodyType: string;
}

/** What the storage knows of a stored object, for the callback's variables. */
export interface StoredInfo {
  key: string;
  size: number;
  contentType: string;
  etag: string;
}

/** The callback field of an upload target of this emulator. */
export function callbackParam(baseUrl: string): string {
  const callback: UploadCallback = { callbackUrl: `${baseUrl}${CALLBACK_PATH}`, callbackBody: BODY, callbackBodyType: FORM };
  return Buffer.from(JSON.stringify(callback)).toString('base64');
}

/**
 * The callback an upload names (undefined when it names none), checked before a byte is kept. The
 * field is not under the policy's signature (in OSS neither), so a client may change it: only a
 * form body sent back to this emulator is taken; any other is refused and nothing is stored.
 */
export function readCallback(value: string | undefined, baseUrl: string): UploadCallback | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    throw invalidArgument('The callback configuration is not json format.');
  }
  const { callbackUrl, callbackBody, callbackBodyType = FORM } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof callbackUrl !== 'string' || typeof callbackBody !== 'string' || typeof callbackBodyType !== 'string') {
    throw invalidArgument('The callback configuration needs callbackUrl and callbackBody (strings).');
  }
  if (callbackUrl !== `${baseUrl}${CALLBACK_PATH}`) {
    throw invalidArgument(`callbackUrl ${callbackUrl}: this storage calls back only ${baseUrl}${CALLBACK_PATH}`);
  }
  if (callbackBodyType !== FORM) throw invalidArgument(`callbackBodyType ${callbackBodyType}: only ${FORM} is taken`);
  return { callbackUrl, callbackBody, callbackBodyType };
}

/** Runs the callback of a stored object; answers the callback server's JSON text. */
export function runCallback(callback: UploadCallback, stored: StoredInfo): string {
  const variables: Record<string, string> = {
    bucket: BUCKET,
    object: stored.key,
    etag: stored.etag,
    size: String(stored.size),
    mimeType: stored.contentType,
  };
  // Unknown variables (OSS's custom ${x:...} ones come from form fields this storage does not read) are left empty.
  const body = callback.callbackBody.replace(/\$\{([^}]*)\}/g, (_m, name: string) => encodeURIComponent(variables[name] ?? ''));
  return acknowledge(body);
}

// The IM service's side: it reads what the storage sent and acknowledges the object.
function acknowledge(body: string): string {
  const sent = new URLSearchParams(body);
  const size = sent.get('size');
  return JSON.stringify({
    Status: 'OK',
    object: sent.get('object') ?? '',
    size: size === null ? 0 : Number(size),
    mimeType: sent.get('mimeType') ?? '',
  });
}
