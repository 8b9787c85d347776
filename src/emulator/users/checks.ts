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

// A mobile number doubles as a login name, so keep it to digits (an optional leading +);
// '' clears it.
const MOBILE = /^\+?\d{5,20}$/;

export function mobileNumber(field: string, value: string): string {
  if (value !== '' && !MOBILE.test(value)) throw invalidParam(field, 'expected a phone number (5 to 20 digits, optional leading +)');
  return value;
}
