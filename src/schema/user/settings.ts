// The user settings object (GET /user/settings), User.settings, and its writes: the
// single-setting endpoints (table-driven), the do-not-disturb hours and the whole-object update.
import type { GatewayContext } from '../../context';
import type { UserSettings } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { AuthMode } from './enums';
import { inRange } from '../core/inputs';
import { type UserParent, UserRef } from '../core/refs';
import { restFor, userIdOf } from '../core/profile';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { byActingUser, type UserChange, changed, orUndefined } from './writes';
import { actingUser } from '../core/profile';

/** The settings of the user (the acting user, or another one through the admin token). */
async function settingsOf(user: UserParent, ctx: GatewayContext): Promise<UserSettings> {
  return (await restFor(user, ctx).call('GET /user/settings', {})).data;
}

/** The spec's int32 codes as the enum's values (graphql-js reports a code outside the enum on the field). */
const authModeOf = (s: UserSettings) => s.auth_mode as 0 | 1 | 2 | 3;

const HOUR = 'Hour of the day, 0-23.';

export const UserSettingsRef = builder.objectRef<UserSettings>('UserSettings').implement({
  description: "A user's settings: friend verification, group invitations, downloads, push and reminders.",
  fields: (t) => ({
    id: t.field({ type: 'ID', nullable: false, description: 'Record ID of the settings.', resolve: (s) => s.id }),
    userId: t.field({ type: 'ID', nullable: false, description: 'User ID.', resolve: (s) => s.user_id }),
    user: t.field({
      type: UserRef,
      nullable: false,
      description: 'The user these settings belong to.',
      resolve: (s) => ({ id: s.user_id }),
    }),
    authMode: t.field({ type: AuthMode, description: 'Friend-adding verification mode.', resolve: authModeOf }),
    authQuestion: t.exposeString('auth_question', { description: 'Verification question (auth mode QUESTION).' }),
    authAnswer: t.exposeString('auth_answer', { description: 'Answer to the verification question.' }),
    autoDownload: t.exposeBoolean('auto_download', { description: 'true: thumbnails and files are downloaded automatically.' }),
    groupConfirm: t.exposeBoolean('group_confirm', {
      description: "true: the user's consent is needed when invited to a group; false: invitations are agreed automatically.",
    }),
    noPush: t.exposeBoolean('no_push', { description: 'true: push messages are off.' }),
    noPushDetail: t.exposeBoolean('no_push_detail', {
      description:
        'true: push details are hidden (closed), as the setter setPushDetailsHidden states. The spec text of the settings ' +
        'object reads the other way round; the setter is followed.',
    }),
    noPushStartHour: t.exposeInt('no_push_start_hour', {
      description: `Do-not-disturb window: its start hour as the service names it (the spec's text labels the two hours inversely). ${HOUR}`,
    }),
    noPushEndHour: t.exposeInt('no_push_end_hour', {
      description: `Do-not-disturb window: its end hour as the service names it (the spec's text labels the two hours inversely). ${HOUR}`,
    }),
    silenceStartTime: t.exposeInt('silence_start_time', { description: `Start of the no-reminder time. ${HOUR}` }),
    silenceEndTime: t.exposeInt('silence_end_time', { description: `End of the no-reminder time. ${HOUR}` }),
    noSounds: t.exposeBoolean('no_sounds', { description: 'true: no sound on receiving a message (muted).' }),
    vibratory: t.exposeBoolean('vibratory', { description: 'true: vibrate on receiving a message.' }),
    pushNickName: t.exposeString('push_nick_name', { description: 'Nickname shown in pushes.' }),
    pushToken: t.exposeString('push_token', { description: 'Push token.' }),
  }),
});

builder.objectField(UserRef, 'settings', (t) =>
  t.field({
    type: UserSettingsRef,
    description: "The user's settings.",
    extensions: reaches('GET /user/settings'),
    resolve: (u, _a, ctx) => settingsOf(u, ctx),
  }),
);

const UserSettingsPayloadRef = payloadType<UserChange>('UserSettingsPayload', {
  description: "The answer to a change of the acting user's settings: whether the service accepted it, and the settings to read back.",
  ok: (c) => c.ok,
  fields: (t) => ({
    settings: t.field({
      type: UserSettingsRef,
      description: 'The settings after the change, read fresh (costs a REST call only when selected).',
      extensions: reaches('GET /user/settings'),
      resolve: fromResult((c, ctx) => settingsOf(c.user, ctx)),
    }),
    user: t.field({ type: UserRef, description: 'The user whose settings changed.', resolve: fromResult((c) => c.user) }),
  }),
});

// The single-setting writes: each maps its one input field straight onto `value`; each name says what true means.
mutation('setAuthMode', {
  description: 'Set how others may add the acting user as a friend.',
  endpoints: ['PUT /user/authmode'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'The friend-adding verification mode.',
  input: (t) => ({ authMode: t.field({ type: AuthMode, required: true, description: 'The friend-adding verification mode.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/authmode', { value: input.authMode })),
});

mutation('setAutoDownload', {
  description: 'Set whether thumbnails and files are downloaded automatically.',
  endpoints: ['PUT /user/download'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'true: download thumbnails and files automatically.',
  input: (t) => ({ autoDownload: t.boolean({ required: true, description: 'true: download thumbnails and files automatically.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/download', { value: input.autoDownload })),
});

mutation('setPushDisabled', {
  description: 'Turn push messages off (disabled: true) or on (disabled: false). Read back as settings.noPush.',
  endpoints: ['PUT /user/push'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'true: push messages OFF; false: push messages on.',
  input: (t) => ({ disabled: t.boolean({ required: true, description: 'true: push messages OFF; false: push messages on.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/push', { value: input.disabled })),
});

mutation('setPushDetailsHidden', {
  description: 'Hide (hidden: true) or show (hidden: false) the details of push messages. Read back as settings.noPushDetail.',
  endpoints: ['PUT /user/push/detail'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'true: push details closed (hidden); false: details shown.',
  input: (t) => ({ hidden: t.boolean({ required: true, description: 'true: push details closed (hidden); false: details shown.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/push/detail', { value: input.hidden })),
});

mutation('setPushNickname', {
  description: 'Set the nickname shown in pushes.',
  endpoints: ['PUT /user/push/nickname'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'The push nickname.',
  input: (t) => ({ pushNickName: t.string({ required: true, description: 'The push nickname.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/push/nickname', { value: input.pushNickName })),
});

mutation('setSoundsMuted', {
  description: 'Turn the sound reminder off (muted: true) or on (muted: false). Read back as settings.noSounds.',
  endpoints: ['PUT /user/sounds'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'true: sound reminder OFF; false: sound on.',
  input: (t) => ({ muted: t.boolean({ required: true, description: 'true: sound reminder OFF; false: sound on.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/sounds', { value: input.muted })),
});

mutation('setVibrate', {
  description: 'Set whether the device vibrates on receiving a message. Read back as settings.vibratory.',
  endpoints: ['PUT /user/vibratory'],
  payload: UserSettingsPayloadRef,
  inputDescription: 'true: vibrate; false: do not.',
  input: (t) => ({ vibrate: t.boolean({ required: true, description: 'true: vibrate; false: do not.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/vibratory', { value: input.vibrate })),
});

const SetNoPushHoursInput = builder.inputType('SetNoPushHoursInput', {
  description: 'The do-not-disturb window.',
  fields: (t) => ({
    noPushStartHour: t.int({ required: true, description: `Start hour as the service names it. ${HOUR}` }),
    noPushEndHour: t.int({ required: true, description: `End hour as the service names it. ${HOUR}` }),
  }),
});

mutation('setNoPushHours', {
  description: 'Set the do-not-disturb window of push messages.',
  endpoints: ['PUT /user/push/limit'],
  payload: UserSettingsPayloadRef,
  input: SetNoPushHoursInput,
  resolve: (input, ctx) => {
    const params = {
      no_push_start_hour: inRange('input.noPushStartHour', input.noPushStartHour, 0, 23),
      no_push_end_hour: inRange('input.noPushEndHour', input.noPushEndHour, 0, 23),
    };
    return byActingUser(ctx, ctx.rest.call('PUT /user/push/limit', params));
  },
});

const UpdateSettingsInput = builder.inputType('UpdateSettingsInput', {
  description: 'Settings to set; absent fields keep their value.',
  fields: (t) => ({
    authMode: t.field({ type: AuthMode, required: false, description: 'Friend-adding verification mode.' }),
    authQuestion: t.string({ required: false, description: 'Verification question.' }),
    authAnswer: t.string({ required: false, description: 'Answer to the verification question.' }),
    autoDownload: t.boolean({ required: false, description: 'true: download thumbnails and files automatically.' }),
    groupConfirm: t.boolean({ required: false, description: "true: the user's consent is needed when invited to a group." }),
    noPush: t.boolean({ required: false, description: 'true: push messages OFF.' }),
    noPushDetail: t.boolean({ required: false, description: 'true: push details hidden.' }),
    noPushStartHour: t.int({ required: false, description: `Do-not-disturb start hour as the service names it. ${HOUR}` }),
    noPushEndHour: t.int({ required: false, description: `Do-not-disturb end hour as the service names it. ${HOUR}` }),
    silenceStartTime: t.int({ required: false, description: `Start of the no-reminder time. ${HOUR}` }),
    silenceEndTime: t.int({ required: false, description: `End of the no-reminder time. ${HOUR}` }),
    noSounds: t.boolean({ required: false, description: 'true: sound reminder OFF.' }),
    vibratory: t.boolean({ required: false, description: 'true: vibrate on receiving a message.' }),
    pushNickName: t.string({ required: false, description: 'Nickname shown in pushes.' }),
    pushToken: t.string({ required: false, description: 'Push token.' }),
  }),
});

type SettingsInput = typeof UpdateSettingsInput.$inferInput;

/** An optional hour of the input, checked 0-23. */
function hour(input: SettingsInput, key: 'noPushStartHour' | 'noPushEndHour' | 'silenceStartTime' | 'silenceEndTime') {
  const value = orUndefined(input[key]);
  return value === undefined ? undefined : inRange(`input.${key}`, value, 0, 23);
}

/**
 * The body's user_id must be the acting user's: the user_id header names it when present;
 * otherwise (a user token) one GET /user/profile learns it, an extra call made only then.
 */
const actingUserId = (ctx: GatewayContext) => userIdOf(actingUser(ctx), ctx);

mutation('updateSettings', {
  description:
    "Set several of the acting user's settings at once. The service needs the user's ID in the body: it is taken from " +
    'the user_id header, or else read with one GET /user/profile.',
  endpoints: ['PUT /user/settings', 'GET /user/profile'],
  payload: UserSettingsPayloadRef,
  input: UpdateSettingsInput,
  resolve: async (input, ctx) => {
    const params = {
      auth_mode: orUndefined(input.authMode),
      auth_question: orUndefined(input.authQuestion),
      auth_answer: orUndefined(input.authAnswer),
      auto_download: orUndefined(input.autoDownload),
      group_confirm: orUndefined(input.groupConfirm),
      no_push: orUndefined(input.noPush),
      no_push_detail: orUndefined(input.noPushDetail),
      no_push_start_hour: hour(input, 'noPushStartHour'),
      no_push_end_hour: hour(input, 'noPushEndHour'),
      silence_start_time: hour(input, 'silenceStartTime'),
      silence_end_time: hour(input, 'silenceEndTime'),
      no_sounds: orUndefined(input.noSounds),
      vibratory: orUndefined(input.vibratory),
      push_nick_name: orUndefined(input.pushNickName),
      push_token: orUndefined(input.pushToken),
    };
    const reply = await ctx.rest.call('PUT /user/settings', { user_id: await actingUserId(ctx), ...params });
    return changed(reply.data, actingUser(ctx));
  },
});
