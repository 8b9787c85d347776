// The input of sendPush (7.2) and its translation into the push body, checked at the gateway
// before any REST call: exactly one audience (each list 1-500 items), a non-empty message, an
// image URL ending in jpg/jpeg/png, a well-formed badge, ext as a JSON object, and an intent
// wherever clickAction is INTENT. Errors name the input field (BAD_USER_INPUT).
import type { Endpoints } from '../../rest/endpoints';
import type { Int64 } from '../../rest/json';
import type { ParamsIn } from '../../rest/table';
import { builder, type SchemaTypes } from '../core/builder';
import { badUserInput } from '../core/inputs';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../core/idempotency-key';
import { OsPushVendor, PushClickAction, PushDistributionStrategy, PushMessageType, VivoClassification, VivoPushMode } from './enums';
import { idListInput } from '../core/id-kinds';

type Types = SchemaTypes;
type PushBody = ParamsIn<Endpoints['POST /push/notify']>;

const MAX_AUDIENCE_ITEMS = 500;

const PushAudienceInput = builder.inputType('PushAudienceInput', {
  description: `Who receives a push: exactly one of the fields. A device matching any listed item is a target; each list has 1-${MAX_AUDIENCE_ITEMS} items.`,
  fields: (t) => ({
    all: t.boolean({ required: false, description: 'true: every device.' }),
    tags: t.stringList({ required: false, description: 'Devices of users with any of these push tags.' }),
    aliases: t.stringList({ required: false, description: 'Devices of users with any of these push aliases.' }),
    userIds: t.field(idListInput({ for: 'User', required: false, description: 'Devices of these users.' })),
    pushTokens: t.stringList({ required: false, description: 'The devices with these push tokens.' }),
  }),
});

const PushSettingInput = builder.inputType('PushSettingInput', {
  description: 'Optional settings of a push.',
  fields: (t) => ({
    requestId: t.string({
      required: false,
      description: `De-duplication key (1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters, a UUID say): a push with a key seen before is not pushed again.`,
    }),
    distributionStrategy: t.field({ type: PushDistributionStrategy, required: false, description: 'Channels to use (default COMBINED).' }),
    osPushSequence: t.field({ type: [OsPushVendor], required: false, description: 'Vendor order (default [UPS, FCM]).' }),
  }),
});

const PushIosInput = builder.inputType('PushIosInput', {
  description: 'iOS (APNs) options.',
  fields: (t) => ({
    sound: t.string({ required: false, description: 'Sound.' }),
    contentAvailable: t.boolean({ required: false, description: 'content-available.' }),
    mutableContent: t.boolean({ required: false, description: 'mutable-content.' }),
    category: t.string({ required: false, description: 'Category.' }),
    threadId: t.string({ required: false, description: 'Notifications with the same thread ID are grouped.' }),
    subtitle: t.string({ required: false, description: 'Subtitle.' }),
    apnsCollapseId: t.string({ required: false, description: 'Replaces a shown notification with the same collapse ID.' }),
  }),
});

/** The fields every Android vendor object has. */
const vendorFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  sound: t.string({ required: false, description: 'Sound.' }),
  channelId: t.string({ required: false, description: 'Notification channel ID.' }),
  clickAction: t.field({ type: PushClickAction, required: false, description: 'What tapping the notification does.' }),
  intent: t.string({
    required: false,
    description: 'Android intent URI naming the component and string extras (intent:...); required when clickAction is INTENT.',
  }),
});

const PushVendorInput = builder.inputType('PushVendorInput', {
  description: 'Options of an Android vendor channel (Android, Xiaomi, OPPO, Flyme, FCM).',
  fields: (t) => vendorFields(t),
});

const PushHuaweiInput = builder.inputType('PushHuaweiInput', {
  description: 'Huawei options.',
  fields: (t) => ({
    ...vendorFields(t),
    badgeClass: t.string({ required: false, description: 'Launcher Activity class of the app icon (for the badge).' }),
  }),
});

const PushVivoInput = builder.inputType('PushVivoInput', {
  description: 'VIVO options.',
  fields: (t) => ({
    ...vendorFields(t),
    pushMode: t.field({ type: VivoPushMode, required: false, description: 'Formal (default) or test push.' }),
    classification: t.field({ type: VivoClassification, required: false, description: 'Operational (default) or system message.' }),
  }),
});

/** Vendor objects of the message: input field → its input type and description. */
const VENDORS = {
  android: [PushVendorInput, 'Android options (the generic Android channel).'],
  huawei: [PushHuaweiInput, 'Huawei options.'],
  xiaomi: [PushVendorInput, 'Xiaomi options.'],
  oppo: [PushVendorInput, 'OPPO options.'],
  flyme: [PushVendorInput, 'Meizu Flyme options.'],
  fcm: [PushVendorInput, 'FCM options.'],
  vivo: [PushVivoInput, 'VIVO options.'],
} as const;

const PushMessageInput = builder.inputType('PushMessageInput', {
  description: 'The push message. At least one of title, body, bigText, attachmentUrl or ext must be set.',
  fields: (t) => ({
    type: t.field({ type: PushMessageType, required: false, description: 'Text (default), image or pass-through command.' }),
    title: t.string({ required: false, description: 'Title.' }),
    body: t.string({ required: false, description: 'Content.' }),
    attachmentUrl: t.string({
      required: false,
      description: 'URL of an image, audio or video; an image URL ends in jpg, jpeg or png (image under 1 MB, 876*324 px recommended).',
    }),
    bigText: t.string({ required: false, description: 'Large text, where the vendor supports it (else body is shown).' }),
    badge: t.string({ required: false, description: 'A number sets the badge to it; + and a number adds to it ("+1"); empty adds one.' }),
    ext: t.string({ required: false, description: 'Free extension data: a JSON object, as a string.' }),
    showBeginTime: t.field({
      type: 'DateTime',
      required: false,
      description: 'When to show the notification (default at once); whole seconds.',
    }),
    showEndTime: t.field({ type: 'DateTime', required: false, description: 'When to stop showing it; whole seconds.' }),
    ios: t.field({ type: PushIosInput, required: false, description: 'iOS options.' }),
    ...Object.fromEntries(
      Object.entries(VENDORS).map(([name, [type, description]]) => [name, t.field({ type, required: false, description })]),
    ),
  }),
});

export const SendPushInput = builder.inputType('SendPushInput', {
  description: 'A push notification: who receives it, how, and what it says.',
  fields: (t) => ({
    audience: t.field({ type: PushAudienceInput, required: true, description: 'Who receives it (exactly one field).' }),
    setting: t.field({ type: PushSettingInput, required: false, description: 'Optional settings.' }),
    message: t.field({ type: PushMessageInput, required: true, description: 'The message.' }),
  }),
});

// ---- translation ----

type Maybe<T> = T | null | undefined;

interface AudienceIn {
  all?: Maybe<boolean>;
  tags?: Maybe<string[]>;
  aliases?: Maybe<string[]>;
  userIds?: Maybe<Int64[]>;
  pushTokens?: Maybe<string[]>;
}

/** Audience input field → the audience list's wire name. */
const AUDIENCE_LISTS = { tags: 'tag', aliases: 'alias', userIds: 'user_id', pushTokens: 'push_token' } as const;

function audienceOf(a: AudienceIn): PushBody['audience'] {
  const given = (Object.keys(a) as (keyof AudienceIn)[]).filter((k) => a[k] !== null && a[k] !== undefined);
  if (given.length !== 1)
    throw badUserInput('input.audience', `give exactly one of all, tags, aliases, userIds, pushTokens (got ${given.length})`);
  const [field] = given as [keyof AudienceIn];
  if (field === 'all') {
    if (a.all !== true) throw badUserInput('input.audience.all', 'must be true (or give a list instead)');
    return 'all';
  }
  const items = a[field] as (string | Int64)[];
  const path = `input.audience.${field}`;
  if (items.length === 0) throw badUserInput(path, 'must not be empty');
  if (items.length > MAX_AUDIENCE_ITEMS) throw badUserInput(path, `at most ${MAX_AUDIENCE_ITEMS} items (got ${items.length})`);
  if (items.some((item) => item === '')) throw badUserInput(path, 'items must not be empty strings');
  return { [AUDIENCE_LISTS[field]]: items } as PushBody['audience'];
}

// The one wire name that is not the input name in snake_case.
const WIRE_NAMES: Readonly<Record<string, string>> = { osPushSequence: 'ospush_sequence' };
const snake = (name: string) => WIRE_NAMES[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A vendor or settings object with the wire's snake_case keys and the unset fields left out. */
function wire(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [snake(k), v]),
  );
}

const IMAGE_URL = /\.(jpe?g|png)$/i;
const BADGE = /^\+?\d{1,9}$/;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

type MessageIn = Record<string, unknown> & {
  type?: Maybe<string>;
  title?: Maybe<string>;
  body?: Maybe<string>;
  attachmentUrl?: Maybe<string>;
  bigText?: Maybe<string>;
  badge?: Maybe<string>;
  ext?: Maybe<string>;
  showBeginTime?: Maybe<number>;
  showEndTime?: Maybe<number>;
};

function extOf(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badUserInput('input.message.ext', 'must be a JSON object (not valid JSON)');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badUserInput('input.message.ext', 'must be a JSON object');
  return value as Record<string, unknown>;
}

function messageOf(m: MessageIn): PushBody['message'] {
  const ext = m.ext === null || m.ext === undefined ? undefined : extOf(m.ext);
  const texts = [m.title, m.body, m.bigText, m.attachmentUrl].some((t) => t !== null && t !== undefined && t !== '');
  if (!texts && (ext === undefined || Object.keys(ext).length === 0)) {
    throw badUserInput('input.message', 'must not be empty: set title, body, bigText, attachmentUrl or ext');
  }
  if (m.type === 'image' && !IMAGE_URL.test(pathOf(m.attachmentUrl ?? ''))) {
    throw badUserInput('input.message.attachmentUrl', 'an IMAGE push needs a URL ending in jpg, jpeg or png');
  }
  if (m.badge !== null && m.badge !== undefined && m.badge !== '' && !BADGE.test(m.badge)) {
    throw badUserInput('input.message.badge', 'must be a number, or + and a number');
  }
  const seconds = (ms: Maybe<number>) => (ms === null || ms === undefined ? undefined : Math.floor(ms / 1000));
  const begin = seconds(m.showBeginTime);
  const end = seconds(m.showEndTime);
  if (begin !== undefined && end !== undefined && end < begin)
    throw badUserInput('input.message.showEndTime', 'must not be before showBeginTime');

  const vendors: Record<string, Record<string, unknown>> = {};
  for (const name of ['ios', ...Object.keys(VENDORS)]) {
    const options = m[name] as Maybe<Record<string, unknown>>;
    if (!options) continue;
    if (options.clickAction === 'intent' && !options.intent)
      throw badUserInput(`input.message.${name}.intent`, 'required when clickAction is INTENT');
    if (typeof options.intent === 'string' && !/^intent:/i.test(options.intent)) {
      throw badUserInput(`input.message.${name}.intent`, 'must be an Android intent URI (intent:...)');
    }
    vendors[name] = wire(options);
  }
  return {
    ...wire({ type: m.type, title: m.title, body: m.body, attachmentUrl: m.attachmentUrl, bigText: m.bigText, badge: m.badge }),
    ...(ext === undefined ? {} : { ext }),
    ...(begin === undefined ? {} : { show_begin_time: begin }),
    ...(end === undefined ? {} : { show_end_time: end }),
    ...vendors,
  };
}

interface SendPushIn {
  audience: AudienceIn;
  setting?: Maybe<Record<string, unknown>>;
  message: MessageIn;
}

/** The body of POST /push/notify for a checked input; throws BAD_USER_INPUT naming the field. */
export function pushBodyOf(input: SendPushIn): PushBody {
  return {
    audience: audienceOf(input.audience),
    ...(input.setting ? { setting: wire(input.setting) } : {}),
    message: messageOf(input.message),
  };
}
