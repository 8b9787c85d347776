// Every mutation of the schema, one table: selecting only `ok` and `userErrors` costs exactly the
// REST calls of the write itself (one, unless the table says why more), counted by the emulator.
// The table is checked against the schema's Mutation fields, so a new mutation cannot be missed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/rest/records';
import { schema } from '../../../src/schema';
import { startStack, type Stack } from '../../helpers/stack';
import { type FileToSend, gqlUpload } from '../../helpers/multipart-upload';
import type { TestUser } from '../../helpers/users';
import { befriend, pendingRequest } from '../../helpers/roster';

let stack: Stack;
beforeAll(async () => {
  // Every mutation, sign-ins among them, from one address: the sign-in limits are probe-sign-in-limit.test.ts's.
  stack = await startStack({ SIGN_IN_LIMIT_ADDRESS: 'off', SIGN_IN_LIMIT_NAME: 'off' });
});
afterAll(() => stack.stop());

/** A mutation call ready to run: its field with arguments, and who runs it. */
interface Prepared {
  call: string;
  headers: Record<string, string>;
  /** File parts of a multipart request, mapped to `$file`. */
  file?: true;
}

interface Case {
  /** Prepares the state with raw REST (not counted) and answers the call. */
  prepare: () => Promise<Prepared>;
  /** REST calls the write needs, when more than one; with the reason. */
  calls?: { count: number; why: string };
}

const token = (u: { token: string }) => ({ 'access-token': u.token });
const admin = () => ({ 'access-token': stack.emu.adminToken });
const user = () => stack.emu.user();
const name = () => `cost_${randomBytes(4).toString('hex')}`;

async function group(owner: TestUser, members: TestUser[] = []): Promise<string> {
  const g = await stack.emu.ok<Group>('POST', '/group/create', {
    token: owner.token,
    body: { name: 'cost', user_list: members.map((m) => m.id) },
  });
  return String(g.group_id);
}

/** The owner, a member and their group. */
async function withMember() {
  const [owner, member] = [await user(), await user()];
  return { owner, member, groupId: await group(owner, [member]) };
}

/** A user with a device (deviceSn 1). */
async function withDevice() {
  const u = await user();
  await stack.emu.ok('POST', '/token/user', { body: { name: u.name, password: u.password, device_guid: `guid-${u.id}` } });
  return u;
}

async function sentMessage(from: TestUser, to: TestUser): Promise<string> {
  const reply = await stack.emu.rest('POST', '/message/send', {
    token: from.token,
    body: { content_type: 0, content: 'hi', attachment: '', targets: [to.id], type: 1 },
  });
  return /"msg_ids":\[(\d+)\]/.exec(reply.text)![1]!;
}

/** A group-scoped call by the owner (or member) of a fresh group. */
const onGroup =
  (call: (groupId: string, member: TestUser) => string, by: 'owner' | 'member' = 'owner') =>
  async (): Promise<Prepared> => {
    const { owner, member, groupId } = await withMember();
    return { call: call(groupId, member), headers: token(by === 'owner' ? owner : member) };
  };

/** A batch mutation on the member, after the owner made the opposite write with raw REST. */
const afterOwner = (write: string, more: Record<string, unknown>, mutation: string) => async (): Promise<Prepared> => {
  const { owner, member, groupId } = await withMember();
  const [method, path] = write.split(' ') as [string, string];
  await stack.emu.ok(method, path, { token: owner.token, body: { group_id: Number(groupId), user_list: [member.id], ...more } });
  return { call: `${mutation}(input: { groupId: "${groupId}", userIds: ["${member.id}"] })`, headers: token(owner) };
};

/** A call of a fresh user on itself. */
const asUser = (call: string, prepare?: (u: TestUser) => Promise<unknown>) => async (): Promise<Prepared> => {
  const u = await user();
  await prepare?.(u);
  return { call, headers: token(u) };
};

const FILE: FileToSend = { path: 'variables.file', name: 'a.txt', type: 'text/plain', data: Buffer.from('hello') };

const CASES: Record<string, Case> = {
  // ---- users ----
  setNickname: { prepare: asUser('setNickname(input: { nickName: "n" })') },
  setAvatar: { prepare: asUser('setAvatar(input: { avatar: "https://img.example/a.png" })') },
  setMobile: { prepare: asUser('setMobile(input: { mobile: "+4915100000000" })') },
  setUsername: { prepare: async () => ({ ...(await asUser('')()), call: `setUsername(input: { username: "${name()}" })` }) },
  setPrivateInfo: { prepare: asUser('setPrivateInfo(input: { info: "p" })') },
  setPublicInfo: { prepare: asUser('setPublicInfo(input: { info: "p" })') },
  updateProfile: { prepare: asUser('updateProfile(input: { nickName: "n", description: "d" })') },
  setAuthMode: { prepare: asUser('setAuthMode(input: { authMode: CONSENT })') },
  setAutoDownload: { prepare: asUser('setAutoDownload(input: { autoDownload: false })') },
  setPushDisabled: { prepare: asUser('setPushDisabled(input: { disabled: true })') },
  setPushDetailsHidden: { prepare: asUser('setPushDetailsHidden(input: { hidden: true })') },
  setPushNickname: { prepare: asUser('setPushNickname(input: { pushNickName: "p" })') },
  setSoundsMuted: { prepare: asUser('setSoundsMuted(input: { muted: true })') },
  setVibrate: { prepare: asUser('setVibrate(input: { vibrate: false })') },
  setNoPushHours: { prepare: asUser('setNoPushHours(input: { noPushStartHour: 22, noPushEndHour: 7 })') },
  // With the user_id header the body's user_id costs no profile read (with a user token it costs one).
  updateSettings: {
    prepare: async () => {
      const u = await user();
      return { call: 'updateSettings(input: { noPush: true })', headers: stack.asUser(u.id) };
    },
  },
  changePassword: { prepare: asUser('changePassword(input: { oldPassword: "secret-1", newPassword: "secret-2" })') },
  changeUserPassword: {
    prepare: async () => ({ call: `changeUserPassword(input: { userId: "${(await user()).id}", password: "p2" })`, headers: admin() }),
  },
  deleteUser: { prepare: asUser('deleteUser(input: { password: "secret-1" })') },
  registerUser: { prepare: async () => ({ call: `registerUser(input: { username: "${name()}", password: "p" })`, headers: {} }) },
  registerUserWithPush: {
    prepare: async () => ({ call: `registerUserWithPush(input: { username: "${name()}", password: "p" })`, headers: {} }),
  },
  registerUsers: {
    prepare: async () => ({ call: `registerUsers(input: { users: [{ username: "${name()}", password: "p" }] })`, headers: {} }),
  },
  loginById: { prepare: async () => ({ call: `loginById(input: { userId: "${(await user()).id}", password: "secret-1" })`, headers: {} }) },
  loginByName: {
    prepare: async () => ({ call: `loginByName(input: { username: "${(await user()).name}", password: "secret-1" })`, headers: {} }),
  },
  loginByLoginName: {
    prepare: async () => ({ call: `loginByLoginName(input: { loginName: "${(await user()).name}", password: "secret-1" })`, headers: {} }),
  },
  disableUsers: { prepare: async () => ({ call: `disableUsers(input: { userIds: ["${(await user()).id}"] })`, headers: admin() }) },
  enableUsers: { prepare: async () => ({ call: `enableUsers(input: { userIds: ["${(await user()).id}"] })`, headers: admin() }) },
  setUserAvatars: {
    prepare: async () => ({
      call: `setUserAvatars(input: { avatars: [{ userId: "${(await user()).id}", avatar: "https://img.example/a.png" }] })`,
      headers: admin(),
    }),
  },
  updateUserProfiles: {
    prepare: async () => ({
      call: `updateUserProfiles(input: { profiles: [{ userId: "${(await user()).id}", nickName: "n" }] })`,
      headers: admin(),
    }),
  },
  removeDevice: { prepare: async () => ({ call: 'removeDevice(input: { deviceSn: 1 })', headers: token(await withDevice()) }) },
  kickUser: { prepare: asUser('kickUser(input: {})') },
  bindDeviceToken: {
    prepare: async () => ({
      call: 'bindDeviceToken(input: { deviceSn: 1, deviceToken: "t", notifierName: "c" })',
      headers: token(await withDevice()),
    }),
  },
  unbindDeviceToken: { prepare: async () => ({ call: 'unbindDeviceToken(input: { deviceSn: 1 })', headers: token(await withDevice()) }) },
  // ---- push preferences and pushes ----
  setPushBadge: { prepare: asUser('setPushBadge(input: { badge: 3 })') },
  setPushAlias: { prepare: asUser('setPushAlias(input: { alias: "a" })') },
  addPushTags: { prepare: asUser('addPushTags(input: { tags: ["a"] })') },
  removePushTags: { prepare: asUser('removePushTags(input: { tags: ["a"] })') },
  clearPushTags: { prepare: asUser('clearPushTags') },
  sendPush: {
    prepare: async () => ({
      call: `sendPush(input: { audience: { userIds: ["${(await withDevice()).id}"] }, message: { body: "b" } })`,
      headers: admin(),
    }),
  },
  // ---- groups ----
  createGroup: { prepare: asUser('createGroup(input: { name: "g" })') },
  dissolveGroup: { prepare: onGroup((g) => `dissolveGroup(groupId: "${g}")`) },
  updateGroup: { prepare: onGroup((g) => `updateGroup(input: { groupId: "${g}", name: "renamed" })`) },
  setGroupDisplayName: { prepare: onGroup((g) => `setGroupDisplayName(input: { groupId: "${g}", displayName: "d" })`, 'member') },
  addGroupAdmins: { prepare: onGroup((g, m) => `addGroupAdmins(input: { groupId: "${g}", userIds: ["${m.id}"] })`) },
  removeGroupAdmins: {
    prepare: async () => {
      const { owner, member, groupId } = await withMember();
      await stack.emu.ok('POST', '/group/admin/add', { token: owner.token, body: { group_id: Number(groupId), user_list: [member.id] } });
      return { call: `removeGroupAdmins(input: { groupId: "${groupId}", userIds: ["${member.id}"] })`, headers: token(owner) };
    },
  },
  kickGroupMembers: { prepare: onGroup((g, m) => `kickGroupMembers(input: { groupId: "${g}", userIds: ["${m.id}"] })`) },
  leaveGroup: { prepare: onGroup((g) => `leaveGroup(groupId: "${g}")`, 'member') },
  transferGroup: { prepare: onGroup((g, m) => `transferGroup(input: { groupId: "${g}", newOwnerId: "${m.id}" })`) },
  applyToGroup: {
    prepare: async () => ({ call: `applyToGroup(input: { groupId: "${await group(await user())}" })`, headers: token(await user()) }),
  },
  handleGroupApplication: {
    prepare: async () => {
      const [owner, applicant] = [await user(), await user()];
      const groupId = await group(owner);
      await stack.emu.ok('POST', '/group/apply', { token: applicant.token, body: { group_id: Number(groupId) } });
      return {
        call: `handleGroupApplication(input: { groupId: "${groupId}", applicantId: "${applicant.id}", approval: true })`,
        headers: token(owner),
      };
    },
  },
  inviteToGroup: {
    prepare: async () => {
      const owner = await user();
      return {
        call: `inviteToGroup(input: { groupId: "${await group(owner)}", userIds: ["${(await user()).id}"] })`,
        headers: token(owner),
      };
    },
  },
  handleGroupInvitation: {
    prepare: async () => {
      const [owner, invitee] = [await user(), await user()];
      await stack.emu.ok('PUT', '/user/settings', { token: invitee.token, body: { user_id: invitee.id, group_confirm: true } });
      const groupId = await group(owner);
      await stack.emu.ok('POST', '/group/invite', { token: owner.token, body: { group_id: Number(groupId), user_list: [invitee.id] } });
      return {
        call: `handleGroupInvitation(input: { groupId: "${groupId}", inviterId: "${owner.id}", approval: true })`,
        headers: token(invitee),
      };
    },
  },
  joinGroupByQrCode: {
    prepare: async () => {
      const owner = await user();
      const groupId = await group(owner);
      const qr = await stack.emu.ok<{ qr_info: string }>('GET', '/group/qrcode/sign', { token: owner.token, query: { group_id: groupId } });
      return { call: `joinGroupByQrCode(input: { qrInfo: ${JSON.stringify(qr.qr_info)} })`, headers: token(await user()) };
    },
  },
  banGroupMembers: { prepare: onGroup((g, m) => `banGroupMembers(input: { groupId: "${g}", userIds: ["${m.id}"], durationMinutes: 5 })`) },
  unbanGroupMembers: { prepare: afterOwner('POST /group/ban', { duration: 5 }, 'unbanGroupMembers') },
  banAllGroupMembers: { prepare: onGroup((g) => `banAllGroupMembers(input: { groupId: "${g}", durationMinutes: 5 })`) },
  unbanAllGroupMembers: { prepare: onGroup((g) => `unbanAllGroupMembers(groupId: "${g}")`) },
  blockGroupUsers: { prepare: onGroup((g, m) => `blockGroupUsers(input: { groupId: "${g}", userIds: ["${m.id}"] })`) },
  unblockGroupUsers: { prepare: afterOwner('POST /group/block', {}, 'unblockGroupUsers') },
  publishAnnouncement: { prepare: onGroup((g) => `publishAnnouncement(input: { groupId: "${g}", title: "t", content: "c" })`) },
  deleteAnnouncement: {
    prepare: async () => {
      const { owner, groupId } = await withMember();
      const a = await stack.emu.ok<{ id: number }>('POST', '/group/announcement/edit', {
        token: owner.token,
        body: { group_id: Number(groupId), title: 't', content: 'c' },
      });
      return { call: `deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${a.id}" })`, headers: token(owner) };
    },
  },
  recordGroupFile: {
    prepare: onGroup((g) => `recordGroupFile(input: { groupId: "${g}", name: "f", size: 1, url: "http://files/f" })`, 'member'),
  },
  ...Object.fromEntries(
    (['renameGroupFile', 'deleteGroupFiles'] as const).map((mutation) => [
      mutation,
      {
        prepare: async () => {
          const { owner, groupId } = await withMember();
          const f = await stack.emu.ok<{ file_id: number }>('POST', '/group/file/upload', {
            token: owner.token,
            body: { group_id: Number(groupId), name: 'f', size: 1, url: 'http://files/f' },
          });
          const call =
            mutation === 'renameGroupFile'
              ? `renameGroupFile(input: { groupId: "${groupId}", fileId: "${f.file_id}", name: "g" })`
              : `deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${f.file_id}"] })`;
          return { call, headers: token(owner) };
        },
      },
    ]),
  ),
  // ---- messages ----
  sendMessage: {
    prepare: async () => ({
      call: `sendMessage(input: { type: TEXT, content: "hi", targets: ["${(await user()).id}"], targetType: USER })`,
      headers: token(await user()),
    }),
  },
  sendNotification: {
    prepare: async () => ({
      call: `sendNotification(input: { type: TEXT, content: "hi", targets: ["${(await user()).id}"], targetType: USER })`,
      headers: admin(),
    }),
  },
  broadcastMessage: {
    prepare: async () => ({ call: 'broadcastMessage(input: { type: TEXT, content: "hi all" })', headers: admin() }),
    calls: { count: 2, why: "the caller proof (GET /user/profile) tells an admin token the gateway does not hold from a user's" },
  },
  askAssistant: {
    prepare: async () => ({
      call: `askAssistant(input: { type: TEXT, content: "hi", targets: ["${(await user()).id}"], targetType: USER })`,
      headers: token(await user()),
    }),
  },
  recallMessage: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      return { call: `recallMessage(input: { conversationId: "${b.id}", messageId: "${await sentMessage(a, b)}" })`, headers: token(a) };
    },
  },
  appendToMessage: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      return {
        call: `appendToMessage(input: { conversationId: "${b.id}", messageId: "${await sentMessage(a, b)}", content: "!" })`,
        headers: token(a),
      };
    },
    calls: { count: 2, why: 'the conversation ID says not whether it names a user or a group: one POST /group/info/batch' },
  },
  replaceMessageContent: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      return {
        call: `replaceMessageContent(input: { conversationId: "${b.id}", messageId: "${await sentMessage(a, b)}", content: "new" })`,
        headers: token(a),
      };
    },
    calls: { count: 2, why: 'the conversation ID says not whether it names a user or a group: one POST /group/info/batch' },
  },
  deleteConversation: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      await sentMessage(a, b);
      return { call: `deleteConversation(conversationId: "${a.id}")`, headers: token(b) };
    },
  },
  pinConversation: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      return { call: `pinConversation(conversationId: "${b.id}")`, headers: token(a) };
    },
  },
  unpinConversation: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      await stack.emu.ok('PUT', '/user/conversation/pin', { token: a.token, body: { conversation_id: b.id } });
      return { call: `unpinConversation(conversationId: "${b.id}")`, headers: token(a) };
    },
  },
  markConversationRead: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      await sentMessage(a, b);
      return { call: `markConversationRead(input: { conversationId: "${a.id}" })`, headers: token(b) };
    },
  },
  // ---- files (the bytes go to the upload target, which is not a REST call of the table) ----
  uploadChatFile: {
    prepare: async () => ({
      call: `uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: "${(await user()).id}" })`,
      headers: token(await user()),
      file: true,
    }),
  },
  uploadUserAvatar: { prepare: asUserWithFile('uploadUserAvatar(input: { file: $file })') },
  uploadGroupAvatar: {
    prepare: async () => ({ ...(await onGroup((g) => `uploadGroupAvatar(input: { groupId: "${g}", file: $file })`)()), file: true }),
  },
  uploadGroupFile: {
    prepare: async () => ({
      ...(await onGroup((g) => `uploadGroupFile(input: { groupId: "${g}", file: $file })`, 'member')()),
      file: true,
    }),
    calls: { count: 2, why: 'the upload target, then the record of the shared file: both are the write' },
  },
  forwardChatFile: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      const uploaded = await gqlUpload<{ uploadChatFile: { file: { fileKey: string } } }>(
        stack.url,
        `mutation($file: File!) { uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: "${b.id}" }) { file { fileKey } } }`,
        { file: null },
        [FILE],
        { app_id: stack.emu.appId, ...token(a) },
      );
      const key = uploaded.data!.uploadChatFile.file.fileKey;
      return { call: `forwardChatFile(input: { fileKey: ${JSON.stringify(key)}, toId: "${b.id}" })`, headers: token(a) };
    },
  },
  // Document 4: the roster.
  sendFriendRequest: {
    prepare: async () => ({ call: `sendFriendRequest(input: { userId: "${(await user()).id}" })`, headers: token(await user()) }),
  },
  sendFriendRequests: {
    prepare: async () => ({
      call: `sendFriendRequests(input: { userIds: ["${(await user()).id}", "${(await user()).id}"] })`,
      headers: token(await user()),
    }),
  },
  acceptFriendRequest: { prepare: onRequest((from) => `acceptFriendRequest(input: { fromId: "${from.id}" })`) },
  declineFriendRequest: { prepare: onRequest((from) => `declineFriendRequest(input: { fromId: "${from.id}" })`) },
  removeFriend: { prepare: onFriend((f) => `removeFriend(userId: "${f.id}")`) },
  updateFriend: { prepare: onFriend((f) => `updateFriend(input: { userId: "${f.id}", alias: "Al" })`) },
  blockUser: { prepare: async () => ({ call: `blockUser(userId: "${(await user()).id}")`, headers: token(await user()) }) },
  unblockUser: {
    prepare: async () => {
      const [a, b] = [await user(), await user()];
      await stack.emu.ok('POST', '/roster/block', { token: a.token, query: { user_id: b.id } });
      return { call: `unblockUser(userId: "${b.id}")`, headers: token(a) };
    },
  },
};

/** The call, run by a user whose friend it names. */
function onFriend(call: (friend: TestUser) => string) {
  return async (): Promise<Prepared> => {
    const [a, b] = [await user(), await user()];
    await befriend(stack.emu, a, b);
    return { call: call(b), headers: token(a) };
  };
}

/** The call, run by a user with a pending friend request from the user it names. */
function onRequest(call: (from: TestUser) => string) {
  return async (): Promise<Prepared> => {
    const [from, to] = [await user(), await user()];
    await pendingRequest(stack.emu, from, to);
    return { call: call(from), headers: token(to) };
  };
}

function asUserWithFile(call: string) {
  return async (): Promise<Prepared> => ({ ...(await asUser(call)()), file: true });
}

describe('every mutation', () => {
  it('is in this table, and the table names only mutations of the schema', () => {
    const mutations = Object.keys(schema.getMutationType()!.getFields()).sort();
    expect(Object.keys(CASES).sort()).toEqual(mutations);
  });

  it.each(Object.entries(CASES))('%s: selecting only ok and userErrors costs the write call alone', async (mutation, c) => {
    const prepared = await c.prepare();
    stack.emu.server.resetCalls();
    const selection = `${prepared.call} { ok userErrors { code } }`;
    const headers = { ...prepared.headers };
    const reply = prepared.file
      ? await gqlUpload(stack.url, `mutation($file: File!) { ${selection} }`, { file: null }, [FILE], {
          app_id: stack.emu.appId,
          ...headers,
        })
      : await stack.gql(`mutation { ${selection} }`, {}, headers);
    expect(reply.errors).toBeUndefined();
    expect(reply.data).toEqual({ [mutation]: { ok: true, userErrors: [] } });
    const endpoints = stack.emu.server.calls.map((call) => call.endpoint);
    expect(endpoints).toHaveLength(c.calls?.count ?? 1);
  });
});
