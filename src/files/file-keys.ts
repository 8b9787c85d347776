// What names a file to the IM service's download and forward endpoints, found in what the service
// hands out. A chat file's file_sign is not its storage key: it rides on the file's download URL
// (`file_sign=`, or `sign=`; the web SDK takes the text after `sign=`), and an avatar's object_name
// likewise; the upload key is only the fallback for a URL that carries neither. Kept below the
// schema and the gateway, so neither imports upward.
import type { UploadTarget } from '../rest/records';

/** Query parameters that name a file, most specific first. */
const NAMING_PARAMS = ['file_sign', 'sign', 'object_name'];

/** A query value as sent: percent-escapes decoded, but a '+' kept (a sign may hold one unescaped). */
function rawValue(search: string, name: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair.startsWith(`${name}=`)) continue;
    const value = pair.slice(name.length + 1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** The file's name in a download URL (its file_sign or object_name), if the URL carries one. */
export function fileKeyInUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  for (const name of NAMING_PARAMS) {
    const value = rawValue(parsed.search, name);
    if (value) return value;
  }
  return undefined;
}

/** An uploaded file's fileKey: what its download URL names it by, else its storage key. */
export function fileKeyOf(target: UploadTarget): string | undefined {
  const key = target.oss_body_param?.key;
  return fileKeyInUrl(target.download_url) ?? (key === undefined ? undefined : String(key));
}

/** A fileKey argument: the key itself, or a download URL that carries it (a message attachment's). */
export const fileKeyArg = (value: string): string => fileKeyInUrl(value) ?? value;
