// 7.2: checks a push request, de-duplicates it by request_id, and records a task whose
// statistics follow from the targets' devices (channels.ts).
import type { Endpoints } from '../../rest/endpoints';
import type { ParamsOut } from '../../rest/table';
import { Code, ImError, invalidParam } from '../errors';
import type { State } from '../state';
import { audienceList, targetsOf } from './audience';
import { channelFor, outcomeOf, type Strategy } from './channels';
import { TaskStats } from './stats';

type PushBody = ParamsOut<Endpoints['POST /push/notify']>;
type PushMessage = NonNullable<PushBody['message']>;

const MAX_AUDIENCE_ITEMS = 500;
const DEFAULT_SEQUENCE = ['ups', 'fcm'];
const IMAGE_SUFFIX = /\.(jpe?g|png)$/i;

function isEmptyMessage(m: PushMessage | undefined): boolean {
  if (!m) return true;
  const texts = [m.title, m.body, m.big_text, m.attachment_url].some((t) => t !== undefined && t !== '');
  return !texts && (m.ext === undefined || Object.keys(m.ext).length === 0);
}

/** Image pushes need a jpg, jpeg or png URL (the 1 MB limit cannot be checked without fetching it). */
function checkImage(m: PushMessage): void {
  if (m.type !== 'image') return;
  const url = m.attachment_url ?? '';
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not an absolute URL: judge the text itself
  }
  if (!IMAGE_SUFFIX.test(path)) throw invalidParam('message.attachment_url', 'an image push needs a URL ending in jpg, jpeg or png');
}

function validate(body: PushBody): asserts body is PushBody & { audience: NonNullable<PushBody['audience']>; message: PushMessage } {
  if (body.audience === undefined) throw invalidParam('audience', 'must not be empty');
  const list = audienceList(body.audience);
  if (list && list.items.length === 0) throw invalidParam('audience', `audience.${list.name} must not be empty`);
  if (list && list.items.length > MAX_AUDIENCE_ITEMS) {
    throw new ImError(Code.PUSH_TOO_MANY_TARGETS, `audience.${list.name} has ${list.items.length} items; at most ${MAX_AUDIENCE_ITEMS}`);
  }
  if (isEmptyMessage(body.message)) throw invalidParam('message', 'must not be empty (set title, body, big_text, attachment_url or ext)');
  checkImage(body.message!);
}

/** Answers the task ID: a new task, or the first one of a repeated request_id. */
export function pushNotify(root: State, body: PushBody): number {
  validate(body);
  const requestId = body.setting?.request_id || undefined;
  const seen = requestId === undefined ? undefined : root.push.taskOfRequest(requestId);
  if (seen !== undefined) return seen;

  const strategy: Strategy = body.setting?.distribution_strategy || 'combined';
  const sequence = body.setting?.ospush_sequence?.length ? body.setting.ospush_sequence : DEFAULT_SEQUENCE;
  const task = new TaskStats(root.ids.pushTask.take());
  for (const { device } of targetsOf(root, body.audience)) {
    const channel = channelFor(device, strategy, sequence);
    if (channel) task.count(channel, outcomeOf(device, channel));
  }
  root.push.add(task, requestId);
  return task.taskId;
}
