// Group QR invitations (4.40, 4.41): qr_info is a payload plus its HMAC under the emulator's key,
// so a client can neither forge one nor stretch its expiry.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Code, ImError } from '../errors';

interface QrPayload {
  groupId: number;
  /** Who signed it (0 = the admin token). */
  inviterId: number;
  createAt: number;
  expireAt: number;
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

export function signQr(key: Buffer, payload: QrPayload): string {
  const fields = [payload.groupId, payload.inviterId, payload.createAt, payload.expireAt];
  const body = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The payload of a genuine qr_info, or 20024. Expiry is the caller's to check (20025). */
export function readQr(key: Buffer, qrInfo: string): QrPayload {
  const invalid = () => new ImError(Code.QR_INVALID, 'group QR code invalid');
  const [body, sig, extra] = qrInfo.split('.');
  if (body === undefined || sig === undefined || extra !== undefined) throw invalid();
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const fields: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  if (!Array.isArray(fields) || fields.length !== 4 || !fields.every(Number.isSafeInteger)) throw invalid();
  const [groupId = 0, inviterId = 0, createAt = 0, expireAt = 0] = fields as number[];
  return { groupId, inviterId, createAt, expireAt };
}
