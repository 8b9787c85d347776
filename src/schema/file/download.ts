// Download URLs (6.1, 6.2) as the gateway serves them: paths of its download route, which fetches
// the file with the requester's identity and streams it through. The fields themselves make no
// REST call; the route makes the one named in `reaches` when the URL is fetched.
import { type DownloadPath, downloadPath } from '../../files/download-paths';
import { fileKeyArg } from '../../files/file-keys';
import type { GatewayContext } from '../../context';
import { builder, reaches } from '../core/builder';
import { badUserInput } from '../core/inputs';
import { AudioFormat, ImageType, ThumbnailStrategy } from './enums';

const IDENTITY_NOTE =
  'The URL is a path on this gateway (prefix the gateway origin). Fetch it with the same identity headers as GraphQL ' +
  '(app_id, access-token, user_id), or pass them as the query parameters app_id, access-token and user_id, as image tags must.';

const imageArgs = builder.args((t) => ({
  imageType: t.field({ type: ImageType, required: false, description: 'Original, thumbnail or cover.' }),
  width: t.float({ required: false, description: 'Width (w).' }),
  height: t.float({ required: false, description: 'Height (h).' }),
  thumbnailStrategy: t.field({
    type: ThumbnailStrategy,
    required: false,
    description: 'Where the thumbnail is generated (default third party).',
  }),
  sdkSign: t.string({ required: false, description: 'SDK signature (sdk_sign).' }),
  storeToken: t.string({ required: false, description: 'File token (store_token of the token record).' }),
  withToken: t.boolean({
    required: false,
    defaultValue: false,
    description:
      "Put the caller's access-token, app_id and user_id into the URL as query parameters, for image tags. Such a URL is a secret.",
  }),
}));

interface ImageArgs {
  imageType?: number | null;
  width?: number | null;
  height?: number | null;
  thumbnailStrategy?: number | null;
  sdkSign?: string | null;
  storeToken?: string | null;
  withToken?: boolean | null;
}

/** The route URL for a file: `key` names it; the image options are checked and carried along. */
function routeUrl(
  path: DownloadPath,
  key: [string, string],
  a: ImageArgs,
  extra: Record<string, string | null | undefined>,
  ctx: GatewayContext,
) {
  if (key[1] === '') throw badUserInput('fileKey', 'must not be empty');
  for (const [name, value] of [
    ['width', a.width],
    ['height', a.height],
  ] as const) {
    if (value !== null && value !== undefined && !(value > 0)) throw badUserInput(name, 'must be greater than 0');
  }
  const params = {
    [key[0]]: key[1],
    ...extra,
    imageType: a.imageType,
    w: a.width,
    h: a.height,
    thumbnailStrategy: a.thumbnailStrategy,
    sdkSign: a.sdkSign,
    storeToken: a.storeToken,
  };
  return downloadPath(path, params, a.withToken ? ctx.caller : undefined);
}

builder.queryFields((t) => ({
  avatarDownloadUrl: t.string({
    description: `URL that downloads an avatar (user or group) through the gateway. ${IDENTITY_NOTE}`,
    extensions: reaches('GET /file/download/avatar'),
    args: {
      fileKey: t.arg.string({
        required: true,
        description: "The avatar's file key (the service's object_name; UploadedFile.fileKey), or a download URL that carries it.",
      }),
      ...imageArgs,
    },
    resolve: (_root, a, ctx) => routeUrl('/files/avatar', ['objectName', fileKeyArg(a.fileKey)], a, {}, ctx),
  }),
  chatFileDownloadUrl: t.string({
    description: `URL that downloads a chat file through the gateway. ${IDENTITY_NOTE}`,
    extensions: reaches('GET /file/download/chat'),
    args: {
      fileKey: t.arg.string({
        required: true,
        description:
          "The chat file's file_sign (UploadedFile.fileKey; not its storage key), or a download URL that carries it (a message attachment's).",
      }),
      format: t.arg({ type: AudioFormat, required: false, description: 'Audio format of a voice file (default amr).' }),
      source: t.arg.string({ required: false, description: 'Request source: miniprogram, or empty (the default).' }),
      ...imageArgs,
    },
    resolve: (_root, a, ctx) =>
      routeUrl('/files/chat', ['fileSign', fileKeyArg(a.fileKey)], a, { format: a.format, source: a.source }, ctx),
  }),
}));
