// Uploads through the gateway (GraphQL multipart request spec): the mutation asks the IM service
// for an upload target, streams the file part of the request to it (src/rest/upload.ts; the
// gateway never holds the file), and answers where the file can be downloaded. The avatar uploads
// can also set the new avatar, and the group file upload records the shared file.
import type { FieldMap } from '@pothos/core';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import type { GatewayContext } from '../../context';
import { type FilePart, IncomingFile } from '../../gateway/multipart';
import type { Int64 } from '../../rest/json';
import type { SharedFile, UploadTarget } from '../../rest/records';
import { UploadHostRefused, UploadTooLarge, uploadToTarget } from '../../rest/upload';
import { builder, reaches, type SchemaTypes } from '../core/builder';
import { ChatFileType } from './enums';
import { TargetType } from '../message/enums';
import { badUserInput } from '../core/inputs';
import { GroupRef, SharedFileRef, UserRef } from '../core/refs';

type Types = SchemaTypes;

// A GraphQLError, not a plain Error: graphql-js wraps a plain one as the originalError of the
// variable's error, and yoga then masks the whole error as unexpected.
const notAFile = () =>
  new GraphQLError('File must be a file part of a GraphQL multipart request, mapped to this variable', {
    extensions: { code: 'BAD_USER_INPUT' },
  });

const FileScalarType = new GraphQLScalarType<IncomingFile, never>({
  name: 'File',
  description:
    'A file sent with the operation as a GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec): ' +
    'set the variable to null in `operations` and map it to the file part in `map`. Input only; ' +
    'files are read in the order they are sent, as the upload streams.',
  serialize: () => {
    throw new GraphQLError('File is an input-only scalar');
  },
  parseValue: (value) => {
    if (value instanceof IncomingFile) return value;
    throw notAFile();
  },
  parseLiteral: () => {
    throw notAFile();
  },
});

export const FileScalar = builder.addScalarType('File', FileScalarType);

interface UploadedShape {
  downloadUrl: string;
  storageKey: string | undefined;
  fileName: string;
  contentType: string;
  size: number;
}

export const UploadedFileRef = builder.objectRef<UploadedShape>('UploadedFile').implement({
  description: 'A file the gateway uploaded to an upload target.',
  fields: (t) => ({
    downloadUrl: t.exposeString('downloadUrl', { nullable: false, description: "Download address of the file (the upload target's downloadUrl)." }),
    fileKey: t.string({
      description:
        'The key the file is stored under (the key field of the upload target), when the target names one: the fileKey of ' +
        'chatFileDownloadUrl and avatarDownloadUrl.',
      resolve: (f) => f.storageKey ?? null,
    }),
    fileName: t.exposeString('fileName', { nullable: false, description: 'File name as the client sent it.' }),
    contentType: t.exposeString('contentType', { nullable: false, description: 'MIME type as the client sent it.' }),
    size: t.field({ type: 'SafeInt', nullable: false, description: 'Size in bytes.', resolve: (f) => f.size }),
  }),
});

/** A payload type with `ok` and `file`, plus the fields of its mutation. */
function uploadPayload<T extends { file: UploadedShape }>(
  name: string,
  description: string,
  more: (t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) => FieldMap = () => ({}),
) {
  return builder.objectRef<T>(name).implement({
    description,
    fields: (t) => ({
      ok: t.boolean({ nullable: false, description: 'True: the file was uploaded.', resolve: () => true }),
      file: t.field({ type: UploadedFileRef, nullable: false, description: 'The uploaded file.', resolve: (p) => p.file }),
      ...more(t),
    }),
  });
}

const ChatFileUploadPayload = uploadPayload<{ file: UploadedShape }>('ChatFileUploadPayload', 'Result of uploadChatFile.');

const UserAvatarUploadPayload = uploadPayload<{ file: UploadedShape; avatarSet: boolean }>(
  'UserAvatarUploadPayload',
  'Result of uploadUserAvatar.',
  (t) => ({
    avatarSet: t.exposeBoolean('avatarSet', { nullable: false, description: "Whether the file became the user's avatar (setAsAvatar)." }),
    user: t.field({ type: UserRef, description: 'The acting user.', resolve: () => ({}) }),
  }),
);

const GroupAvatarUploadPayload = uploadPayload<{ file: UploadedShape; avatarSet: boolean; groupId: Int64 }>(
  'GroupAvatarUploadPayload',
  'Result of uploadGroupAvatar.',
  (t) => ({
    avatarSet: t.exposeBoolean('avatarSet', { nullable: false, description: "Whether the file became the group's avatar (setAsAvatar)." }),
    group: t.field({ type: GroupRef, description: 'The group.', resolve: (p) => ({ id: p.groupId }) }),
  }),
);

const GroupFileUploadPayload = uploadPayload<{ file: UploadedShape; sharedFile: SharedFile }>(
  'GroupFileUploadPayload',
  'Result of uploadGroupFile.',
  (t) => ({ sharedFile: t.field({ type: SharedFileRef, description: 'The shared file recorded in the group.', resolve: (p) => p.sharedFile }) }),
);

/**
 * Opens the file, gets a target from `targetFor` (which may still refuse the input: nothing has
 * been asked of the service yet when it is called), and streams the file there. The file's bytes
 * are read or dropped whatever happens, so that the rest of the request can be read.
 */
async function uploadFile(
  ctx: GatewayContext,
  file: IncomingFile,
  targetFor: (part: FilePart) => Promise<UploadTarget>,
): Promise<UploadedShape> {
  try {
    const part = await file.open();
    const target = await targetFor(part);
    const { imBaseUrl, uploadHosts, maxUploadBytes } = ctx.settings;
    const { size } = await uploadToTarget(target, part, { imBaseUrl, uploadHosts, maxBytes: maxUploadBytes });
    const storageKey = target.oss_body_param?.key;
    return {
      downloadUrl: target.download_url,
      storageKey: storageKey === undefined ? undefined : String(storageKey),
      fileName: part.filename,
      contentType: part.mimeType,
      size,
    };
  } catch (err) {
    if (err instanceof UploadTooLarge) throw badUserInput('file', `must be at most ${err.limit} bytes`);
    if (err instanceof UploadHostRefused) {
      throw new GraphQLError(`the upload target's host ${err.host} is not allowed (set UPLOAD_HOSTS to allow it)`, {
        extensions: { code: 'FORBIDDEN', uploadHost: err.host },
      });
    }
    throw err;
  } finally {
    file.discard();
  }
}

/** The shared file_type (6.5) of a file by its MIME type. */
function sharedFileType(mimeType: string): number {
  const kind = mimeType.split('/')[0]?.toLowerCase();
  return kind === 'image' ? 202 : kind === 'audio' ? 201 : kind === 'video' ? 203 : 200;
}

const fileArgs = builder.args((t) => ({
  file: t.field({ type: FileScalar, required: true, description: 'The file: a part of the multipart request.' }),
}));

const avatarArgs = (whose: string) =>
  builder.args((t) => ({
    ...fileArgs,
    setAsAvatar: t.boolean({ required: false, defaultValue: false, description: `Also make the uploaded file ${whose} avatar.` }),
  }));

builder.mutationFields((t) => ({
  uploadChatFile: t.field({
    type: ChatFileUploadPayload,
    description: 'Upload a chat file through the gateway; put file.downloadUrl into the message attachment.',
    extensions: reaches('GET /file/upload/chat'),
    args: {
      ...fileArgs,
      fileType: t.arg({ type: ChatFileType, required: true, description: 'What kind of file it is.' }),
      toId: t.arg({ type: 'ID', required: true, description: 'The receiving user or group.' }),
      toType: t.arg({ type: TargetType, required: false, description: 'Whether toId is a user (default) or a group.' }),
    },
    resolve: async (_root, a, ctx) => {
      const uploaded = await uploadFile(ctx, a.file, async () =>
        (await ctx.rest.call('GET /file/upload/chat', { file_type: a.fileType, to_id: a.toId, to_type: a.toType ?? undefined })).data,
      );
      return { file: uploaded };
    },
  }),

  uploadUserAvatar: t.field({
    type: UserAvatarUploadPayload,
    description: "Upload an avatar for the acting user; with setAsAvatar, also set it as the user's avatar (its download URL).",
    extensions: reaches('GET /file/upload/avatar/user', 'PUT /user/avatar'),
    args: avatarArgs("the user's"),
    resolve: async (_root, a, ctx) => {
      const uploaded = await uploadFile(ctx, a.file, async () => (await ctx.rest.call('GET /file/upload/avatar/user', {})).data);
      if (a.setAsAvatar) await ctx.rest.call('PUT /user/avatar', { avatar: uploaded.downloadUrl });
      return { file: uploaded, avatarSet: a.setAsAvatar === true };
    },
  }),

  uploadGroupAvatar: t.field({
    type: GroupAvatarUploadPayload,
    description: "Upload an avatar for a group; with setAsAvatar, also set it as the group's avatar (its download URL).",
    extensions: reaches('GET /file/upload/avatar/group', 'PUT /group/info/avatar'),
    args: {
      groupId: t.arg({ type: 'ID', required: true, description: 'Group ID.' }),
      ...avatarArgs("the group's"),
    },
    resolve: async (_root, a, ctx) => {
      const uploaded = await uploadFile(
        ctx,
        a.file,
        async () => (await ctx.rest.call('GET /file/upload/avatar/group', { group_id: a.groupId })).data,
      );
      if (a.setAsAvatar) await ctx.rest.call('PUT /group/info/avatar', { group_id: a.groupId, value: uploaded.downloadUrl });
      return { file: uploaded, avatarSet: a.setAsAvatar === true, groupId: a.groupId };
    },
  }),

  uploadGroupFile: t.field({
    type: GroupFileUploadPayload,
    description:
      "Upload a file and share it in a group: the upload target's file type (shared plain, voice, picture or video file) " +
      'follows the MIME type, and the shared file is recorded with the name, size, download URL and MIME type.',
    extensions: reaches('GET /file/upload/chat', 'POST /group/file/upload'),
    args: {
      groupId: t.arg({ type: 'ID', required: true, description: 'Group ID.' }),
      ...fileArgs,
      name: t.arg.string({ required: false, description: "Name of the shared file; default: the file part's file name." }),
    },
    resolve: async (_root, a, ctx) => {
      let name = '';
      const uploaded = await uploadFile(ctx, a.file, async (part) => {
        name = a.name ?? part.filename;
        if (name === '') throw badUserInput('name', 'must not be empty (give a name or a file name in the file part)');
        const query = { file_type: sharedFileType(part.mimeType), to_id: a.groupId, to_type: 2 };
        return (await ctx.rest.call('GET /file/upload/chat', query)).data;
      });
      const recorded = await ctx.rest.call('POST /group/file/upload', {
        group_id: a.groupId,
        name,
        size: uploaded.size,
        url: uploaded.downloadUrl,
        ...(uploaded.contentType ? { type: uploaded.contentType } : {}),
      });
      return { file: uploaded, sharedFile: recorded.data };
    },
  }),
}));
