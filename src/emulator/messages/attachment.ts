// The attachment of a sent message: a string holding a JSON object with the file's url, name,
// length, duration and size (spec section "Message"). File types need it; others may leave it ''.
import { z } from 'zod';
import { invalidParam } from '../errors';
import { FILE_CTYPES, type StoredCtype } from './model';

const ATTACHMENT = z.looseObject({
  url: z.string().optional(),
  dName: z.string().optional(),
  fLen: z.number().int().optional(),
  duration: z.number().int().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});

/** Throws 10002 naming attachment unless it fits the message type. */
export function checkAttachment(ctype: StoredCtype, attachment: string): void {
  const needsFile = FILE_CTYPES.has(ctype);
  if (attachment === '' && !needsFile) return;
  let value: unknown;
  try {
    value = JSON.parse(attachment);
  } catch {
    throw invalidParam('attachment', 'expected a JSON object in a string');
  }
  const parsed = ATTACHMENT.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `key ${issue.path.join('.')}: ` : '';
    throw invalidParam('attachment', `${where}${issue.message}`);
  }
  if (needsFile && (parsed.data.url === undefined || parsed.data.url === '')) {
    throw invalidParam('attachment', `a ${ctype} message needs a non-empty string url`);
  }
}
