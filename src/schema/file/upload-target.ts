// Upload targets (6.3, 6.4, 6.5): where and how a client uploads a file itself, and where it can
// be downloaded afterwards. Each call hands out a fresh target (never memoized). Also 6.6, the
// address of a chat file forwarded to another conversation.
import { fileKeyArg } from '../../files/file-keys';
import type { UploadTarget } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { ChatFileType, UploadMethod } from './enums';
import { TargetType } from '../message/enums';
import { badUserInput } from '../core/inputs';
import { idInput } from '../core/id-kinds';

const KeyValueRef = builder.objectRef<{ key: string; value: string }>('KeyValue').implement({
  description: 'One named string value.',
  fields: (t) => ({
    key: t.exposeString('key', { nullable: false, description: 'The name.' }),
    value: t.exposeString('value', { nullable: false, description: 'The value.' }),
  }),
});

const UploadTargetRef = builder.objectRef<UploadTarget>('UploadTarget').implement({
  description:
    'Where to upload one file: send the form fields plus the file as multipart/form-data to uploadUrl with uploadMethod, ' +
    'then use downloadUrl (for example in a message attachment). Each target is for one file.',
  fields: (t) => ({
    uploadUrl: t.exposeString('upload_url', { nullable: false, description: 'Upload address.' }),
    uploadMethod: t.field({ type: UploadMethod, nullable: false, description: 'POST or PUT.', resolve: (u) => u.upload_method }),
    downloadUrl: t.exposeString('download_url', { nullable: false, description: 'Download address of the file once uploaded.' }),
    formFields: t.field({
      type: [KeyValueRef],
      nullable: false,
      description:
        'Parameters to set in the upload request (oss_body_param), in order; for object storage: OSSAccessKeyId, policy, signature, key, ...',
      resolve: (u) => Object.entries(u.oss_body_param ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    }),
  }),
});

builder.queryFields((t) => ({
  userAvatarUploadTarget: t.field({
    type: UploadTargetRef,
    description: "Upload address of the acting user's avatar (a new one per call).",
    extensions: reaches('GET /file/upload/avatar/user'),
    resolve: async (_root, _a, ctx) => (await ctx.rest.call('GET /file/upload/avatar/user', {})).data,
  }),
  groupAvatarUploadTarget: t.field({
    type: UploadTargetRef,
    description: "Upload address of a group's avatar (a new one per call); needs the right to change the group's information.",
    extensions: reaches('GET /file/upload/avatar/group'),
    args: { groupId: t.arg(idInput({ for: 'Group', required: true, description: 'Group ID.' })) },
    resolve: async (_root, a, ctx) => (await ctx.rest.call('GET /file/upload/avatar/group', { group_id: a.groupId })).data,
  }),
  chatFileUploadTarget: t.field({
    type: UploadTargetRef,
    description: 'Upload address of a chat file or a group shared file (a new one per call).',
    extensions: reaches('GET /file/upload/chat'),
    args: {
      fileType: t.arg({ type: ChatFileType, required: true, description: 'What kind of file will be uploaded.' }),
      toId: t.arg(idInput({ for: ['User', 'Group'], required: true, description: 'The receiving user or group.' })),
      toType: t.arg({ type: TargetType, required: false, description: 'Whether toId is a user (default) or a group.' }),
    },
    resolve: async (_root, a, ctx) =>
      (await ctx.rest.call('GET /file/upload/chat', { file_type: a.fileType, to_id: a.toId, to_type: a.toType ?? undefined })).data,
  }),
}));

const ForwardChatFilePayloadRef = payloadType<string>('ForwardChatFilePayload', {
  description: 'The result of forwarding a chat file.',
  fields: (t) => ({
    url: t.string({
      description: 'The address of the forwarded copy (a new one per call), to put into the forwarded message.',
      resolve: fromResult((url) => url),
    }),
  }),
});

mutation('forwardChatFile', {
  description: 'Forward an uploaded chat file to another conversation without uploading it again.',
  endpoints: ['GET /file/upload/forward'],
  payload: ForwardChatFilePayloadRef,
  inputDescription: 'The chat file and where it goes.',
  input: (t) => ({
    fileKey: t.string({
      required: true,
      description:
        "The chat file's file_sign (UploadedFile.fileKey; not its storage key), or a download URL that carries it (a message attachment's).",
    }),
    toId: t.field(idInput({ for: ['User', 'Group'], required: true, description: 'The receiving user or group.' })),
    toType: t.field({ type: TargetType, required: false, description: 'Whether toId is a user (default) or a group.' }),
  }),
  resolve: async (input, ctx) => {
    if (input.fileKey === '') throw badUserInput('input.fileKey', 'must not be empty');
    const reply = await ctx.rest.call('GET /file/upload/forward', {
      file_sign: fileKeyArg(input.fileKey),
      to_id: input.toId,
      to_type: input.toType ?? undefined,
    });
    return reply.data;
  },
});
