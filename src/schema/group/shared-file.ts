// Files shared in a group: the SharedFile type (declared in refs.ts, also used by uploads), a
// group's files, and recording, renaming and deleting them. The bytes live behind `url`.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { groupObjectId, groupObjectIdFields, idList, okOf, payloadGroupField, userUnlessBackend, GROUP_ID } from './common';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { badUserInput, nonBlank } from '../core/inputs';
import { GroupRef, NodeRef, SharedFileRef, UserRef } from '../core/refs';
import { fetchableNode } from '../core/node-kinds';
import { idInput, idListInput } from '../core/id-kinds';

SharedFileRef.implement({
  description: 'A file shared in a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    ...groupObjectIdFields(t, 'SharedFile', 'fileId', 'file', (f) => [f.group_id, f.file_id]),
    groupId: t.field({ type: 'ID', nullable: false, description: 'ID of the group.', resolve: (f) => f.group_id }),
    group: t.field({ type: GroupRef, nullable: false, description: 'The group.', resolve: (f) => ({ id: f.group_id }) }),
    name: t.exposeString('name', { description: 'File name.' }),
    size: t.field({ type: 'SafeInt', description: 'Size in bytes.', resolve: (f) => f.size }),
    type: t.exposeString('type', { description: 'File type.' }),
    url: t.exposeString('url', { description: 'Download URL.' }),
    uploaderId: t.field({
      type: 'ID',
      nullable: false,
      description: 'ID of the uploader (0: the app backend).',
      resolve: (f) => f.uploader,
    }),
    uploader: t.field({
      type: UserRef,
      description: 'The uploader; null when the app backend recorded it.',
      resolve: (f) => userUnlessBackend(f.uploader),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was recorded.', resolve: (f) => f.created_at }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (f) => f.updated_at }),
  }),
});

const fileOf = async (ctx: GatewayContext, groupId: Int64, fileId: Int64): Promise<R.SharedFile> =>
  (await ctx.rest.call('GET /group/file', { group_id: groupId, file_id: fileId })).data;

// node(id:): as Group.file(id:) reads it; null once deleted (or its group dissolved).
fetchableNode('SharedFile', ([groupId, fileId], ctx) => fileOf(ctx, groupId!, fileId!));

const SharedFileConnectionRef = connectionOf('SharedFile', SharedFileRef, 'shared file');
const PAGE = 50;

builder.objectFields(GroupRef, (t) => ({
  files: wholeListField(t, {
    type: SharedFileConnectionRef,
    description: 'Files shared in the group, in upload order.',
    endpoint: 'GET /group/file/list',
    defaultFirst: PAGE,
    key: (f) => ({ sort: Number(f.created_at), id: String(f.file_id) }),
    order: 'ascending',
    read: async (g, ctx) => (await ctx.rest.call('GET /group/file/list', { group_id: g.id })).data,
  }),
  file: t.field({
    type: SharedFileRef,
    description: 'One file shared in the group.',
    extensions: reaches('GET /group/file'),
    args: { id: t.arg(idInput({ for: 'SharedFile', required: true, description: 'File ID.' })) },
    resolve: (g, args, ctx) => fileOf(ctx, g.id, args.id),
  }),
}));

// ---- mutations ----

interface SharedFilePayloadShape {
  ok: boolean;
  groupId: Int64;
  fileId: Int64;
  /** The record when the write answered it. */
  file?: R.SharedFile;
}

const SharedFilePayloadRef = payloadType<SharedFilePayloadShape>('SharedFilePayload', {
  description: 'The outcome of a change to a shared file.',
  ok: (c) => c.ok,
  fields: (t) => ({
    file: t.field({
      type: SharedFileRef,
      description: 'The file as it is now.',
      extensions: reaches('GET /group/file'),
      resolve: fromResult((c, ctx) => c.file ?? fileOf(ctx, c.groupId, c.fileId)),
    }),
    group: t.field(payloadGroupField()),
  }),
});

const GroupFileResultRef = builder.objectRef<R.FileOperationResult>('GroupFileResult').implement({
  description: 'The outcome of an operation on one shared file.',
  fields: (t) => ({
    fileId: t.field({ type: 'ID', nullable: false, description: 'The file the operation concerned.', resolve: (r) => r.file_id }),
    success: t.boolean({ nullable: false, description: 'Whether it succeeded for this file.', resolve: (r) => r.result === 'success' }),
    reason: t.string({ description: 'Why it failed; null when the service gives no reason.', resolve: (r) => r.reason || null }),
  }),
});

const GroupFilesPayloadRef = payloadType<{ groupId: Int64; results: R.FileOperationResult[] }>('GroupFilesPayload', {
  description: 'The outcome of an operation on several shared files: one result per file listed; ok when it succeeded for every file.',
  ok: (c) => c.results.every((r) => r.result === 'success'),
  fields: (t) => ({
    results: t.field({ type: [GroupFileResultRef], description: 'One result per file.', resolve: fromResult((c) => c.results) }),
    group: t.field(payloadGroupField()),
    deletedFileIds: t.field({
      type: ['ID'],
      nullable: false,
      description:
        "The files deleted, as SharedFile.id answers them (the request's ID format), for Relay's @deleteEdge or a client " +
        "cache's eviction: those the service deleted; empty when it deleted none.",
      resolve: (p, _args, ctx) => {
        const c = p.result;
        if (c === null) return [];
        return c.results.filter((r) => r.result === 'success').map((r) => groupObjectId(ctx, 'SharedFile', c.groupId, r.file_id));
      },
    }),
  }),
});

const RecordGroupFileInput = builder.inputType('RecordGroupFileInput', {
  description: 'A file, already uploaded, to share in a group.',
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    name: t.string({ required: true, description: 'File name (not empty).' }),
    size: t.field({ type: 'SafeInt', required: true, description: 'Size in bytes (not negative).' }),
    url: t.string({ required: true, description: 'Download URL of the uploaded file (not empty).' }),
    type: t.string({ required: false, description: 'File type.' }),
  }),
});

const RenameGroupFileInput = builder.inputType('RenameGroupFileInput', {
  description: 'A new name for a shared file.',
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    fileId: t.field(idInput({ for: 'SharedFile', required: true, description: 'File ID.' })),
    name: t.string({ required: true, description: 'New file name (not empty).' }),
  }),
});

mutation('recordGroupFile', {
  description: 'Share an uploaded file in a group (members): records its name, size and URL.',
  endpoints: ['POST /group/file/upload'],
  payload: SharedFilePayloadRef,
  input: RecordGroupFileInput,
  resolve: async (input, ctx) => {
    const name = nonBlank('input.name', input.name);
    const url = nonBlank('input.url', input.url);
    if (input.size < 0) throw badUserInput('input.size', 'must not be negative');
    const reply = await ctx.rest.call('POST /group/file/upload', {
      group_id: input.groupId,
      name,
      size: input.size,
      url,
      type: input.type ?? undefined,
    });
    return { ok: true, groupId: reply.data.group_id, fileId: reply.data.file_id, file: reply.data };
  },
});

mutation('renameGroupFile', {
  description: 'Rename a shared file (its uploader or an admin).',
  endpoints: ['PUT /group/file/update_name'],
  payload: SharedFilePayloadRef,
  input: RenameGroupFileInput,
  resolve: async (input, ctx) => {
    const name = nonBlank('input.name', input.name);
    const reply = await ctx.rest.call('PUT /group/file/update_name', { group_id: input.groupId, file_id: input.fileId, name });
    return { ok: okOf(reply.data), groupId: input.groupId, fileId: input.fileId };
  },
});

mutation('deleteGroupFiles', {
  description: 'Delete shared files (each by its uploader or an admin).',
  endpoints: ['DELETE /group/file/delete'],
  payload: GroupFilesPayloadRef,
  inputDescription: 'The group and the files.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    fileIds: t.field(idListInput({ for: 'SharedFile', required: true, description: 'File IDs.' })),
  }),
  resolve: async (input, ctx) => {
    const fileList = idList('input.fileIds', input.fileIds);
    const reply = await ctx.rest.call('DELETE /group/file/delete', { group_id: input.groupId, file_list: fileList });
    return { groupId: input.groupId, results: reply.data };
  },
});
