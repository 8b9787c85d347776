// Group announcements (4.4-4.8): admins publish and delete, members read. "edit" publishes a new
// one (the spec gives it no announcement_id); the latest is the last published.
import type { Int64 } from '../../rest/json';
import { Code, ImError, invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import { type AnnouncementRecord, announcementView, type GroupRecord, idOf } from './model';
import { Rank, requireRank } from './roles';

function requireAnnouncement(g: GroupRecord, id: Int64): AnnouncementRecord {
  const found = g.announcements.get(idOf(id));
  if (!found) throw new ImError(Code.ANNOUNCEMENT_NOT_FOUND, `announcement ${id} does not exist in group ${g.id}`);
  return found;
}

export const announcementHandlers: HandlerMap = {
  // author: the acting user; 0 when the admin token publishes without acting as a user.
  'POST /group/announcement/edit': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    if (p.title.trim() === '') throw invalidParam('title', 'must not be empty');
    if (p.content.trim() === '') throw invalidParam('content', 'must not be empty');
    const announcement: AnnouncementRecord = {
      id: ctx.state.ids.announcement.take(),
      groupId: g.id,
      author: ctx.actor.userId ?? 0,
      title: p.title,
      content: p.content,
      createdAt: ctx.now,
    };
    g.announcements.set(announcement.id, announcement);
    return announcementView(announcement);
  },

  'GET /group/announcement': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    return announcementView(requireAnnouncement(g, p.announcement_id));
  },

  'GET /group/announcement/last': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    const latest = [...g.announcements.values()].at(-1);
    if (!latest) throw new ImError(Code.ANNOUNCEMENT_NOT_FOUND, `group ${g.id} has no announcement`);
    return announcementView(latest);
  },

  // Newest first, as a reader expects them.
  'GET /group/announcement/list': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.MEMBER);
    return [...g.announcements.values()].reverse().map(announcementView);
  },

  // The spec does not show the data object; we answer which announcement went.
  'DELETE /group/announcement/delete': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    const gone = requireAnnouncement(g, p.announcement_id);
    g.announcements.delete(gone.id);
    return { announcement_id: gone.id, group_id: g.id };
  },
};
