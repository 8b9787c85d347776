// The callback's `signature` header is the shared secret itself, sent verbatim on every request
// (document 6: no HMAC over the body, no timestamp). Compared in constant time over SHA-256
// digests, so that neither the comparison nor the lengths of the two values tell anything about
// the secret.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** A check of a request's `signature` header against the configured secret. */
export function signatureCheck(secret: string): (given: string | undefined) => boolean {
  const expected = digest(secret);
  // A missing header is hashed as well: the time taken does not tell missing from wrong.
  return (given) => timingSafeEqual(digest(given ?? ''), expected) && given !== undefined;
}
