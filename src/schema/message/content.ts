// What a message carries besides its targets, as send, notify, broadcast and the assistant take
// it: its kind, content and file. Checked at the gateway before any REST call.
import { stringifyJson } from '../../rest/json';
import { builder } from '../core/builder';
import { badUserInput } from '../core/inputs';

/** Types whose attachment must carry the file's URL (IMAGE, AUDIO, VIDEO, FILE). */
const MEDIA_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 4]);
const TEXT = 0;

export const MessageAttachmentInput = builder.inputType('MessageAttachmentInput', {
  description: 'The file of an IMAGE, AUDIO, VIDEO or FILE message; sent as the JSON string the service stores.',
  fields: (t) => ({
    url: t.string({ required: true, description: 'URL of the file (url): the download URL of an upload target.' }),
    displayName: t.string({ required: false, description: 'File name to display (dName).' }),
    size: t.field({ type: 'SafeInt', required: false, description: 'File length in bytes (fLen).' }),
    duration: t.int({ required: false, description: 'Duration of a voice message (duration).' }),
    width: t.float({ required: false, description: 'Width of an image (width).' }),
    height: t.float({ required: false, description: 'Height of an image (height).' }),
  }),
});

type AttachmentInput = typeof MessageAttachmentInput.$inferInput;

function nonNegative(field: string, value: number | null | undefined): number | undefined {
  if (value == null) return undefined;
  if (value < 0) throw badUserInput(field, 'must not be negative');
  return value;
}

/**
 * The attachment JSON string with the service's key names; none without one (the 2026 send-body
 * makes it optional, and the service's own connector sends text without it).
 */
function attachmentJson(a: AttachmentInput | null | undefined): string | undefined {
  if (!a) return undefined;
  const keys = {
    url: a.url,
    dName: a.displayName ?? undefined,
    fLen: nonNegative('input.attachment.size', a.size),
    duration: nonNegative('input.attachment.duration', a.duration),
    width: nonNegative('input.attachment.width', a.width),
    height: nonNegative('input.attachment.height', a.height),
  };
  return stringifyJson(Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined)));
}

/** A message's kind, content and file as an input gives them. */
export interface ContentInput {
  type: number;
  content?: string | null;
  attachment?: AttachmentInput | null;
}

/** content_type, content and attachment of a send-body; throws BAD_USER_INPUT (a blank TEXT, a file type without its URL). */
export function contentFields(input: ContentInput) {
  const content = input.content ?? '';
  if (input.type === TEXT && content.trim() === '') throw badUserInput('input.content', 'must not be blank for a TEXT message');
  if (MEDIA_TYPES.has(input.type) && !input.attachment?.url) {
    throw badUserInput('input.attachment.url', 'is required for IMAGE, AUDIO, VIDEO and FILE messages');
  }
  return { content_type: input.type, content, attachment: attachmentJson(input.attachment) };
}
