// Uploads through the gateway (GraphQL multipart request spec): the mutation asks the IM service
// for an upload target, streams the file part of the request to it (src/rest/upload.ts; the
// gateway never holds the file), and answers where the file can be downloaded. The avatar uploads
// can also set the new avatar, and the group file upload records the shared file.
import type { InputFieldBuilder } from '@pothos/core';
import { GraphQLError, GraphQLScalarType } from 'graphql';
import type { GatewayContext } from '../../context';
import { fileKeyOf } from '../../files/file-keys';
import { type FilePart, IncomingFile } from '../../files/incoming-file';
import type { Int64 } from '../../rest/json';
import type { SharedFile, UploadTarget } from '../../rest/records';
import { UploadHostRefused, UploadTooLarge, uploadToTarget } from '../../rest/upload';
import { builder, type SchemaTypes } from '../core/builder';
import { fromResult, mutation, type Outcome, payloadType } from '../core/mutation';
import { ChatFileType } from './enums';
import { TargetType } from '../message/enums';
import { badUserInput } from '../core/inputs';
import { GroupRef, SharedFileRef, UserRef } from '../core/refs';
import { idInput } from '../core/id-kinds';

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

const FileScalar = builder.addScalarType('File', FileScalarType);

interface UploadedShape {
  downloadUrl: string;
  /** The file's name to the service (files/file-keys.ts): a chat file's file_sign, an avatar's object_name. */
  fileKey: string | undefined;
  fileName: string;
  contentType: string;
  size: number;
}

const UploadedFileRef = builder.objectRef<UploadedShape>('UploadedFile').implement({
  description: 'A file the gateway uploaded to an upload target.',
  fields: (t) => ({
    downloadUrl: t.exposeString('downloadUrl', {
      nullable: false,
      description: "Download address of the file (the upload target's downloadUrl).",
    }),
    fileKey: t.string({
      description:
        "What names the file to the service, taken from its download URL: a chat file's file_sign (the sign the URL " +
        "carries, which is not the storage key), an avatar's object_name; the upload target's key when the URL carries " +
        'neither. The fileKey of chatFileDownloadUrl, avatarDownloadUrl and forwardChatFile.',
      resolve: (f) => f.fileKey ?? null,
    }),
    fileName: t.exposeString('fileName', { nullable: false, description: 'File name as the client sent it.' }),
    contentType: t.exposeString('contentType', { nullable: false, description: 'MIME type as the client sent it.' }),
    size: t.field({ type: 'SafeInt', nullable: false, description: 'Size in bytes.', resolve: (f) => f.size }),
  }),
});

/** The `file` field every upload payload has. */
const uploadedFileField = <T extends { file: UploadedShape }>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, Outcome<T>>) =>
  t.field({ type: UploadedFileRef, description: 'The uploaded file.', resolve: fromResult((p: T) => p.file) });

const ChatFileUploadPayload = payloadType<{ file: UploadedShape }>('ChatFileUploadPayload', {
  description: 'Result of uploadChatFile.',
  fields: (t) => ({ file: uploadedFileField(t) }),
});

const AVATAR_SET = (whose: string) => `Whether the file became ${whose} avatar (setAsAvatar).`;

const UserAvatarUploadPayload = payloadType<{ file: UploadedShape; avatarSet: boolean }>('UserAvatarUploadPayload', {
  description: 'Result of uploadUserAvatar.',
  fields: (t) => ({
    file: uploadedFileField(t),
    avatarSet: t.boolean({ description: AVATAR_SET("the user's"), resolve: fromResult((p) => p.avatarSet) }),
    user: t.field({ type: UserRef, description: 'The acting user.', resolve: fromResult(() => ({})) }),
  }),
});

const GroupAvatarUploadPayload = payloadType<{ file: UploadedShape; avatarSet: boolean; groupId: Int64 }>('GroupAvatarUploadPayload', {
  description: 'Result of uploadGroupAvatar.',
  fields: (t) => ({
    file: uploadedFileField(t),
    avatarSet: t.boolean({ description: AVATAR_SET("the group's"), resolve: fromResult((p) => p.avatarSet) }),
    group: t.field({ type: GroupRef, description: 'The group.', resolve: fromResult((p) => ({ id: p.groupId })) }),
  }),
});

const GroupFileUploadPayload = payloadType<{ file: UploadedShape; sharedFile: SharedFile }>('GroupFileUploadPayload', {
  description: 'Result of uploadGroupFile.',
  fields: (t) => ({
    file: uploadedFileField(t),
    sharedFile: t.field({
      type: SharedFileRef,
      description: 'The shared file recorded in the group.',
      resolve: fromResult((p) => p.sharedFile),
    }),
  }),
});

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
    return {
      downloadUrl: target.download_url,
      fileKey: fileKeyOf(target),
      fileName: part.filename,
      contentType: part.mimeType,
      size,
    };
  } catch (err) {
    if (err instanceof UploadTooLarge) throw badUserInput('input.file', `must be at most ${err.limit} bytes`);
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

const FILE = 'The file: a part of the multipart request.';
const setAsAvatar = (t: InputFieldBuilder<Types, 'InputObject'>, whose: string) =>
  t.boolean({ required: false, defaultValue: false, description: `Also make the uploaded file ${whose} avatar.` });

mutation('uploadChatFile', {
  description: 'Upload a chat file through the gateway; put file.downloadUrl into the message attachment.',
  endpoints: ['GET /file/upload/chat'],
  payload: ChatFileUploadPayload,
  inputDescription: 'The file and where it will be sent.',
  input: (t) => ({
    file: t.field({ type: FileScalar, required: true, description: FILE }),
    fileType: t.field({ type: ChatFileType, required: true, description: 'What kind of file it is.' }),
    toId: t.field(idInput({ for: ['User', 'Group'], required: true, description: 'The receiving user or group.' })),
    toType: t.field({ type: TargetType, required: false, description: 'Whether toId is a user (default) or a group.' }),
  }),
  resolve: async (input, ctx) => {
    const uploaded = await uploadFile(
      ctx,
      input.file,
      async () =>
        (await ctx.rest.call('GET /file/upload/chat', { file_type: input.fileType, to_id: input.toId, to_type: input.toType ?? undefined }))
          .data,
    );
    return { file: uploaded };
  },
});

mutation('uploadUserAvatar', {
  description: "Upload an avatar for the acting user; with setAsAvatar, also set it as the user's avatar (its download URL).",
  endpoints: ['GET /file/upload/avatar/user', 'PUT /user/avatar'],
  payload: UserAvatarUploadPayload,
  inputDescription: 'The avatar file.',
  input: (t) => ({
    file: t.field({ type: FileScalar, required: true, description: FILE }),
    setAsAvatar: setAsAvatar(t, "the user's"),
  }),
  resolve: async (input, ctx) => {
    const uploaded = await uploadFile(ctx, input.file, async () => (await ctx.rest.call('GET /file/upload/avatar/user', {})).data);
    if (input.setAsAvatar) await ctx.rest.call('PUT /user/avatar', { avatar: uploaded.downloadUrl });
    return { file: uploaded, avatarSet: input.setAsAvatar === true };
  },
});

mutation('uploadGroupAvatar', {
  description: "Upload an avatar for a group; with setAsAvatar, also set it as the group's avatar (its download URL).",
  endpoints: ['GET /file/upload/avatar/group', 'PUT /group/info/avatar'],
  payload: GroupAvatarUploadPayload,
  inputDescription: 'The group and the avatar file.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    file: t.field({ type: FileScalar, required: true, description: FILE }),
    setAsAvatar: setAsAvatar(t, "the group's"),
  }),
  resolve: async (input, ctx) => {
    const uploaded = await uploadFile(
      ctx,
      input.file,
      async () => (await ctx.rest.call('GET /file/upload/avatar/group', { group_id: input.groupId })).data,
    );
    if (input.setAsAvatar) await ctx.rest.call('PUT /group/info/avatar', { group_id: input.groupId, value: uploaded.downloadUrl });
    return { file: uploaded, avatarSet: input.setAsAvatar === true, groupId: input.groupId };
  },
});

mutation('uploadGroupFile', {
  description:
    "Upload a file and share it in a group: the upload target's file type (shared plain, voice, picture or video file) " +
    'follows the MIME type, and the shared file is recorded with the name, size, download URL and MIME type.',
  endpoints: ['GET /file/upload/chat', 'POST /group/file/upload'],
  payload: GroupFileUploadPayload,
  inputDescription: 'The group, the file and its name.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    file: t.field({ type: FileScalar, required: true, description: FILE }),
    name: t.string({ required: false, description: "Name of the shared file; default: the file part's file name." }),
  }),
  resolve: async (input, ctx) => {
    let name = '';
    const uploaded = await uploadFile(ctx, input.file, async (part) => {
      name = input.name ?? part.filename;
      if (name === '') throw badUserInput('input.name', 'must not be empty (give a name or a file name in the file part)');
      const query = { file_type: sharedFileType(part.mimeType), to_id: input.groupId, to_type: 2 };
      return (await ctx.rest.call('GET /file/upload/chat', query)).data;
    });
    const recorded = await ctx.rest.call('POST /group/file/upload', {
      group_id: input.groupId,
      name,
      size: uploaded.size,
      url: uploaded.downloadUrl,
      ...(uploaded.contentType ? { type: uploaded.contentType } : {}),
    });
    return { file: uploaded, sharedFile: recorded.data };
  },
});
