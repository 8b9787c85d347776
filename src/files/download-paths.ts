// The gateway's download routes (/files/avatar, /files/chat): which REST download each serves and
// how its URL parameters map onto the endpoint's. The schema builds URLs to them (downloadPath);
// the gateway serves them (gateway/http/downloads.ts). Kept below both, so neither imports upward.
import type { Caller } from '../rest/caller';
import type { DownloadName } from '../rest/client';

export interface DownloadRoute {
  endpoint: DownloadName;
  /** The parameter naming the file. */
  key: string;
  /** URL parameter → the endpoint's parameter. */
  params: Readonly<Record<string, string>>;
}

const IMAGE_PARAMS = {
  imageType: 'image_type',
  w: 'w',
  h: 'h',
  sdkSign: 'sdk_sign',
  storeToken: 'store_token',
  thumbnailStrategy: 'thumbnail_strategy',
};

export const DOWNLOAD_ROUTES = {
  '/files/avatar': { endpoint: 'GET /file/download/avatar', key: 'objectName', params: { objectName: 'object_name', ...IMAGE_PARAMS } },
  '/files/chat': {
    endpoint: 'GET /file/download/chat',
    key: 'fileSign',
    params: { fileSign: 'file_sign', format: 'format', source: 'source', ...IMAGE_PARAMS },
  },
} as const satisfies Record<string, DownloadRoute>;

export type DownloadPath = keyof typeof DOWNLOAD_ROUTES;

/** The identity query parameters, named as the IM service's headers. */
const IDENTITY = { token: 'access-token', appId: 'app_id', userId: 'user_id' } as const;

/**
 * The route's URL (a path on the gateway) for these parameters; with `identity`, the caller's
 * token, app_id and user_id ride along as query parameters (for image tags: the URL is then a secret).
 */
export function downloadPath(
  path: DownloadPath,
  params: Readonly<Record<string, string | number | null | undefined>>,
  identity?: Caller,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params) as [string, unknown][]) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  for (const [field, name] of Object.entries(IDENTITY) as [keyof typeof IDENTITY, string][]) {
    const value = identity?.[field];
    if (value !== undefined) search.set(name, value);
  }
  return `${path}?${search.toString()}`;
}
