// The storage's refusals in its own shape: the routes under /_storage stand for an object storage
// service (Aliyun OSS), not for the IM service, so they answer an OSS XML <Error> (Code, Message,
// RequestId, HostId) with OSS's HTTP status, never the IM envelope.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export class StorageError extends Error {
  constructor(
    readonly status: number,
    /** OSS's error code: AccessDenied, SignatureDoesNotMatch, EntityTooLarge, NoSuchKey, ... */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A form field missing or unusable (OSS: InvalidArgument, 400). */
export const invalidArgument = (why: string) => new StorageError(400, 'InvalidArgument', why);
/** A body that is not the multipart form OSS expects (MalformedPOSTRequest, 400). */
export const malformedPost = (why: string) => new StorageError(400, 'MalformedPOSTRequest', why);
/** The policy refuses the upload (AccessDenied, 403). */
export const policyRefused = (why: string) => new StorageError(403, 'AccessDenied', `Invalid according to Policy: ${why}`);
/** Over the policy's content-length-range (EntityTooLarge, 400: OSS does not answer 413). */
export const entityTooLarge = (max: number) =>
  new StorageError(400, 'EntityTooLarge', `Your proposed upload exceeds the maximum allowed size of ${max} bytes.`);
export const noSuchKey = (key: string) => new StorageError(404, 'NoSuchKey', `The specified key does not exist: ${key}`);

/** An OSS-style request id (x-oss-request-id), for every answer of the storage. */
export const ossRequestId = () => randomBytes(12).toString('hex').toUpperCase();

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export function sendStorageError(res: ServerResponse, err: StorageError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const requestId = ossRequestId();
  const text =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error>\n' +
    `  <Code>${escapeXml(err.code)}</Code>\n  <Message>${escapeXml(err.message)}</Message>\n` +
    `  <RequestId>${requestId}</RequestId>\n  <HostId>im-emulator</HostId>\n</Error>\n`;
  res.writeHead(err.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(text),
    'x-oss-request-id': requestId,
  });
  res.end(text);
}
