// Shared files of a group (4.19-4.23): any member records and reads them; the uploader or an
// admin renames or deletes one (20023 otherwise). The bytes live elsewhere (upload targets, 6.5):
// a record only points at its url.
import type { Int64 } from '../../rest/json';
import type { Actor } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import { perFile } from './batch';
import { fileView, type GroupRecord, idOf, type SharedFileRecord } from './model';
import { Rank, requireRank } from './roles';

function requireFile(g: GroupRecord, id: Int64): SharedFileRecord {
  const found = g.files.get(idOf(id));
  if (!found) throw new ImError(Code.FILE_NOT_FOUND, `shared file ${id} does not exist in group ${g.id}`);
  return found;
}

function assertMayChange(file: SharedFileRecord, rank: Rank, actor: Actor): void {
  if (rank >= Rank.ADMIN || (actor.userId !== undefined && actor.userId === file.uploader)) return;
  throw new ImError(Code.FILE_NO_PERMISSION, `only the uploader or an admin may change shared file ${file.id}`);
}

const nonEmpty = (field: string, value: string) => {
  if (value.trim() === '') throw invalidParam(field, 'must not be empty');
  return value;
};

export const sharedFileHandlers: HandlerMap = {
  // uploader: the acting user; 0 when the admin token records without acting as a user.
  'POST /group/file/upload': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    if (p.size < 0) throw invalidParam('size', 'must not be negative');
    const file: SharedFileRecord = {
      id: ctx.state.ids.file.take(),
      groupId: g.id,
      name: nonEmpty('name', p.name),
      size: p.size,
      type: p.type ?? '',
      url: nonEmpty('url', p.url),
      uploader: ctx.actor.userId ?? 0,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    g.files.set(file.id, file);
    return fileView(file);
  },

  'GET /group/file': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    return fileView(requireFile(g, p.file_id));
  },

  // Upload order.
  'GET /group/file/list': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    return [...g.files.values()].map(fileView);
  },

  'PUT /group/file/update_name': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.MEMBER);
    const file = requireFile(g, p.file_id);
    assertMayChange(file, rank, ctx.actor);
    file.name = nonEmpty('name', p.name);
    file.updatedAt = ctx.now;
    return true;
  },

  'DELETE /group/file/delete': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.MEMBER);
    return perFile(p.file_list, (id) => {
      assertMayChange(requireFile(g, id), rank, ctx.actor);
      g.files.delete(id);
    });
  },
};
