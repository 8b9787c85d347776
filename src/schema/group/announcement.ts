// Group announcements: the Announcement type, a group's announcements, and publishing and
// deleting them (admins).
import { upstreamCodeOf } from '../core/upstream-errors';
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { nonBlank } from '../core/inputs';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { GROUP_ID, GroupPayloadRef, groupObjectIdFields, okOf, userUnlessBackend } from './common';
import { GroupRef, NodeRef, UserRef } from '../core/refs';
import { fetchableNode } from '../core/node-kinds';
import { idInput } from '../core/id-kinds';
import { sharedRead, startsAhead } from '../core/speculative';

/** Upstream code: the announcement does not exist. */
const ANNOUNCEMENT_NOT_FOUND = 20020;

const AnnouncementRef = builder.objectRef<R.Announcement>('Announcement').implement({
  description: 'An announcement of a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    ...groupObjectIdFields(t, 'Announcement', 'announcementId', 'announcement', (a) => [a.group_id, a.id]),
    groupId: t.field({ type: 'ID', nullable: false, description: 'ID of the group.', resolve: (a) => a.group_id }),
    group: t.field({ type: GroupRef, nullable: false, description: 'The group.', resolve: (a) => ({ id: a.group_id }) }),
    authorId: t.field({ type: 'ID', nullable: false, description: 'ID of the publisher (0: the app backend).', resolve: (a) => a.author }),
    author: t.field({
      type: UserRef,
      description: 'The publisher; null when the app backend published it.',
      resolve: (a) => userUnlessBackend(a.author),
    }),
    title: t.exposeString('title', { description: 'Title.' }),
    content: t.exposeString('content', { description: 'Content.' }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was published.', resolve: (a) => a.created_at }),
  }),
});

/** One announcement, as GET /group/announcement answers it. */
const announcementOf = async (ctx: GatewayContext, groupId: Int64, id: Int64) =>
  (await ctx.rest.call('GET /group/announcement', { group_id: groupId, announcement_id: id })).data;

// node(id:): as Group.announcement(id:) reads it; null once deleted (or its group dissolved).
fetchableNode('Announcement', ([groupId, id], ctx) => announcementOf(ctx, groupId!, id!));

const AnnouncementConnectionRef = connectionOf('Announcement', AnnouncementRef, 'announcement');
const PAGE = 50;

/** The latest announcement's read, shared by the request (group(id:) starts it beside the group's existence check). */
const latestOf = (id: Int64, ctx: GatewayContext) =>
  sharedRead(ctx, `announcement/last ${idText(id)}`, () => ctx.rest.call('GET /group/announcement/last', { group_id: id }));
startsAhead(GroupRef, 'latestAnnouncement', latestOf);

builder.objectFields(GroupRef, (t) => ({
  announcements: wholeListField(t, {
    type: AnnouncementConnectionRef,
    description: 'Announcements of the group, newest first.',
    endpoint: 'GET /group/announcement/list',
    defaultFirst: PAGE,
    key: (a) => ({ sort: Number(a.created_at), id: String(a.id) }),
    order: 'descending',
    read: async (g, ctx) => (await ctx.rest.call('GET /group/announcement/list', { group_id: g.id })).data,
  }),
  latestAnnouncement: t.field({
    type: AnnouncementRef,
    description: 'The latest announcement; null when the group has none.',
    extensions: reaches('GET /group/announcement/last'),
    resolve: async (g, _args, ctx) => {
      try {
        return (await latestOf(g.id, ctx)).data;
      } catch (err) {
        // "No such announcement" is the service's answer for a group without any.
        if (upstreamCodeOf(err) === ANNOUNCEMENT_NOT_FOUND) return null;
        throw err;
      }
    },
  }),
  announcement: t.field({
    type: AnnouncementRef,
    description: 'One announcement of the group.',
    extensions: reaches('GET /group/announcement'),
    args: { id: t.arg(idInput({ for: 'Announcement', required: true, description: 'Announcement ID.' })) },
    resolve: (g, args, ctx) => announcementOf(ctx, g.id, args.id),
  }),
}));

const PublishAnnouncementInput = builder.inputType('PublishAnnouncementInput', {
  description: 'A new announcement.',
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    title: t.string({ required: true, description: 'Title (not empty).' }),
    content: t.string({ required: true, description: 'Content (not empty).' }),
  }),
});

const AnnouncementPayloadRef = payloadType<R.Announcement>('AnnouncementPayload', {
  description: 'The outcome of publishing an announcement.',
  fields: (t) => ({
    announcement: t.field({ type: AnnouncementRef, description: 'The announcement published.', resolve: fromResult((a) => a) }),
    group: t.field({ type: GroupRef, description: 'The group.', resolve: fromResult((a) => ({ id: a.group_id })) }),
  }),
});

mutation('publishAnnouncement', {
  description: 'Publish an announcement in a group (admins).',
  endpoints: ['POST /group/announcement/edit'],
  payload: AnnouncementPayloadRef,
  input: PublishAnnouncementInput,
  resolve: async (input, ctx) => {
    const title = nonBlank('input.title', input.title);
    const content = nonBlank('input.content', input.content);
    return (await ctx.rest.call('POST /group/announcement/edit', { group_id: input.groupId, title, content })).data;
  },
});

mutation('deleteAnnouncement', {
  description: 'Delete an announcement (admins). The payload names it in deletedAnnouncementId.',
  endpoints: ['DELETE /group/announcement/delete'],
  payload: GroupPayloadRef,
  inputDescription: 'The group and the announcement.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    announcementId: t.field(idInput({ for: 'Announcement', required: true, description: 'Announcement ID.' })),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('DELETE /group/announcement/delete', {
      group_id: input.groupId,
      announcement_id: input.announcementId,
    });
    return { ok: okOf(reply.data), groupId: input.groupId, deletedAnnouncement: input.announcementId };
  },
});
