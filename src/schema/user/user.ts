// The User type, the reads of one user, and the profile setters. Fields are lazy: each resolves
// through the request's REST client, and the profile GET is made once however many of its fields
// are chosen. Settings, devices and push preferences add their User fields in their own files.
import { builder, reaches } from '../core/builder';
import { nonBlank } from '../core/inputs';
import { NodeRef, UserRef } from '../core/refs';
import { PUBLIC, publicProfileOf, startsWithPublicProfile, userExists } from './peers';
import { userIdOf } from '../core/profile';
import { listedField, privateField } from './profile-access';
import { orUndefined, UserPayloadRef, byActingUser, byActingUserFace } from './writes';
import { mutation } from '../core/mutation';
import { recordField } from '../core/record-field';
import { idInput } from '../core/id-kinds';

/** Who reads a private field (profile-access.ts): no call is sent that the service would refuse. */
const PRIVATE = "Null for another user read with a user token (the user's own token, or the admin token, reads it).";
// The caller proof tells a user token from an admin token (GET /user/profile, the caller's own).
const PRIVATE_READ = reaches('GET /user/profile');
const LISTED_READ = reaches('GET /user/profile', 'POST /roster/list');
const fromPublicProfile = recordField(publicProfileOf);

UserRef.implement({
  description: 'A user of the IM service.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description: 'User ID.',
      resolve: (u, _a, ctx) => userIdOf(u, ctx),
    }),
    username: t.string({
      description:
        "User name (unique; usable as login name). Another user's, for a user token: as the caller's roster shows it " +
        '(POST /roster/list); null for an unknown user.',
      extensions: LISTED_READ,
      resolve: listedField((p) => p.username),
    }),
    nickName: t.string({
      description: `Nickname. ${PUBLIC}`,
      extensions: reaches('GET /user/profile'),
      resolve: fromPublicProfile((p) => p?.nick_name ?? null),
    }),
    avatar: t.string({
      description: `Avatar URL. ${PUBLIC}`,
      extensions: reaches('GET /user/profile'),
      resolve: fromPublicProfile((p) => p?.avatar ?? null),
    }),
    description: t.string({
      description:
        "Self description. Another user's, for a user token: as the caller's roster shows it (POST /roster/list); null for an unknown user.",
      extensions: LISTED_READ,
      resolve: listedField((p) => p.description),
    }),
    email: t.string({
      description: `E-mail address. ${PRIVATE}`,
      extensions: PRIVATE_READ,
      resolve: privateField((p) => p.email),
    }),
    mobile: t.string({
      description: `Mobile number. ${PRIVATE}`,
      extensions: PRIVATE_READ,
      resolve: privateField((p) => p.mobile),
    }),
    publicInfo: t.string({
      description: `Public extension information, visible to friends and strangers. ${PUBLIC}`,
      extensions: reaches('GET /user/profile'),
      resolve: fromPublicProfile((p) => p?.public_info ?? null),
    }),
    privateInfo: t.string({
      description: `Private extension information, visible only to the user. ${PRIVATE}`,
      extensions: PRIVATE_READ,
      resolve: privateField((p) => p.private_info),
    }),
  }),
});

startsWithPublicProfile('nickName', 'avatar', 'publicInfo');

builder.queryFields((t) => ({
  me: t.field({
    type: UserRef,
    description: 'The acting user: the owner of the access-token, or the user named by the user_id header with an admin token.',
    resolve: () => ({}),
  }),
  user: t.field({
    type: UserRef,
    description:
      'A user by ID; null when there is none. With an admin token every field is read as that user (user_id header). With a ' +
      'user token the public fields (nickName, avatar, publicInfo, online) of anyone are read (see their descriptions); the ' +
      "private ones only for the caller's own ID (others fail with FORBIDDEN). Whether the user exists is read from its " +
      "profile (GET /user/profile, the same read as the profile fields'); a user token without the service credential " +
      'cannot tell for other users: they are answered, their public fields null.',
    extensions: reaches('GET /user/profile'),
    args: { id: t.arg(idInput({ for: 'User', required: true, description: 'User ID.' })) },
    resolve: async (_root, a, ctx) => ((await userExists(a.id, ctx)) ? { id: a.id } : null),
  }),
}));

// Profile setters: one value each, one REST call as the acting user.
mutation('setNickname', {
  description: "Set the acting user's nickname.",
  endpoints: ['PUT /user/nickname'],
  payload: UserPayloadRef,
  inputDescription: 'The new nickname.',
  input: (t) => ({ nickName: t.string({ required: true, description: 'The new nickname.' }) }),
  resolve: (input, ctx) => byActingUserFace(ctx, ctx.rest.call('PUT /user/nickname', { nick_name: input.nickName })),
});

mutation('setAvatar', {
  description: "Set the acting user's avatar URL.",
  endpoints: ['PUT /user/avatar'],
  payload: UserPayloadRef,
  inputDescription: 'Avatar URL (for example a download URL of an uploaded avatar).',
  input: (t) => ({ avatar: t.string({ required: true, description: 'Avatar URL (for example a download URL of an uploaded avatar).' }) }),
  resolve: (input, ctx) => byActingUserFace(ctx, ctx.rest.call('PUT /user/avatar', { avatar: input.avatar })),
});

mutation('setMobile', {
  description: "Set the acting user's mobile number (also usable as a login name).",
  endpoints: ['PUT /user/mobile'],
  payload: UserPayloadRef,
  refusals: { 10004: { field: ['input', 'mobile'] } },
  inputDescription: 'The new mobile number.',
  input: (t) => ({ mobile: t.string({ required: true, description: 'The new mobile number.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/mobile', { mobile: input.mobile })),
});

mutation('setUsername', {
  description: "Set the acting user's user name.",
  endpoints: ['PUT /user/username'],
  payload: UserPayloadRef,
  refusals: { 10004: { field: ['input', 'username'] } },
  inputDescription: 'The new user name (unique).',
  input: (t) => ({ username: t.string({ required: true, description: 'The new user name (unique).' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/username', { username: nonBlank('input.username', input.username) })),
});

mutation('setPrivateInfo', {
  description: "Set the acting user's private extension information (visible only to the user).",
  endpoints: ['PUT /user/private'],
  payload: UserPayloadRef,
  inputDescription: 'The private extension information.',
  input: (t) => ({ info: t.string({ required: true, description: 'The private extension information.' }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/private', { info: input.info })),
});

mutation('setPublicInfo', {
  description: "Set the acting user's public extension information (visible to friends and strangers).",
  endpoints: ['PUT /user/public'],
  payload: UserPayloadRef,
  inputDescription: 'The public extension information.',
  input: (t) => ({ info: t.string({ required: true, description: 'The public extension information.' }) }),
  resolve: (input, ctx) => byActingUserFace(ctx, ctx.rest.call('PUT /user/public', { info: input.info })),
});

const UpdateProfileInput = builder.inputType('UpdateProfileInput', {
  description: 'Profile fields to set; absent fields keep their value.',
  fields: (t) => ({
    description: t.string({ required: false, description: 'Self description.' }),
    nickName: t.string({ required: false, description: 'Nickname.' }),
    privateInfo: t.string({ required: false, description: 'Private extension information, visible only to the user.' }),
    publicInfo: t.string({ required: false, description: 'Public extension information, visible to friends and strangers.' }),
  }),
});

/** The editable profile fields as REST params (shared by updateProfile and the admin batch). */
export function profileParams(p: {
  description?: string | null;
  nickName?: string | null;
  privateInfo?: string | null;
  publicInfo?: string | null;
}) {
  return {
    description: orUndefined(p.description),
    nick_name: orUndefined(p.nickName),
    private_info: orUndefined(p.privateInfo),
    public_info: orUndefined(p.publicInfo),
  };
}

mutation('updateProfile', {
  description: "Set several of the acting user's profile fields at once.",
  endpoints: ['PUT /user/profile'],
  payload: UserPayloadRef,
  input: UpdateProfileInput,
  resolve: (input, ctx) => byActingUserFace(ctx, ctx.rest.call('PUT /user/profile', profileParams(input))),
});
