// Field rules shared by the user endpoints. Each throws 10002 naming the field, before any change.
import { invalidParam } from '../errors';

export function nonEmpty(field: string, value: string): string {
  if (value.trim() === '') throw invalidParam(field, 'must not be empty');
  return value;
}

/** The spec types the avatar as a URL; '' clears it. */
export function avatarUrl(field: string, value: string): string {
  if (value === '') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParam(field, 'expected an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidParam(field, 'expected an http(s) URL');
  return value;
}

// The 2026 format (document 5, 1.14 and 8.14): a plus sign and at least 8 digits, or 11 digits
// starting 13 to 19. '' clears the number (1.14).
const MOBILE = /^(?:\+\d{8,}|1[3-9]\d{9})$/;

export function mobileNumber(field: string, value: string): string {
  if (value !== '' && !MOBILE.test(value)) {
    throw invalidParam(field, 'expected a plus sign and at least 8 digits, or 11 digits starting 13 to 19');
  }
  return value;
}
