// How long a message's content may be (../NOTES.md, "Message content length"): the reference shows
// no limit; the vendor's apps let a user type at most 5,000 characters, and a reply streamed in
// appends grows past what one request carries. Characters are UTF-16 code units, as the apps count.
import { invalidParam } from '../errors';

/** Content of one send, append or replace. */
export const MAX_CONTENT_CHARS = 5_000;

/** A message's whole content after appends: twenty requests' worth. */
export const MAX_MESSAGE_CHARS = 20 * MAX_CONTENT_CHARS;

/** Refuses (10002 naming `content`) a request's content over MAX_CONTENT_CHARS. */
export function checkContent(content: string | undefined): void {
  if (content !== undefined && content.length > MAX_CONTENT_CHARS) {
    throw invalidParam('content', `is ${content.length} characters long, more than ${MAX_CONTENT_CHARS}`);
  }
}

/** Refuses an append that would make the message's content longer than MAX_MESSAGE_CHARS. */
export function checkAppended(current: string, appended: string): void {
  const length = current.length + appended.length;
  if (length > MAX_MESSAGE_CHARS) {
    throw invalidParam('content', `would make message content ${length} characters long, more than ${MAX_MESSAGE_CHARS}`);
  }
}
