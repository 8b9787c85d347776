// The devices a push audience names. 'all' = every device; tag, alias and user_id select users
// (all their devices); push_token selects single devices (the push token the service issued, or a
// bound vendor device token). Users who turned push off (no_push) are never targets.
import type { Endpoints } from '../../rest/endpoints';
import type { ParamsOut } from '../../rest/table';
import type { State } from '../state';
import type { DeviceRecord, UserRecord } from '../users/model';

type Audience = NonNullable<ParamsOut<Endpoints['POST /push/notify']>['audience']>;

interface Target {
  user: UserRecord;
  device: DeviceRecord;
}

function userFilter(audience: Audience): ((u: UserRecord) => boolean) | undefined {
  if (audience === 'all') return () => true;
  if ('tag' in audience) {
    const tags = new Set(audience.tag);
    return (u) => [...u.tags].some((t) => tags.has(t));
  }
  if ('alias' in audience) {
    const aliases = new Set(audience.alias);
    return (u) => u.pushAlias !== '' && aliases.has(u.pushAlias);
  }
  if ('user_id' in audience) {
    const ids = new Set(audience.user_id.map(Number));
    return (u) => ids.has(u.id);
  }
  return undefined;
}

export function targetsOf(root: State, audience: Audience): Target[] {
  const byUser = userFilter(audience);
  const tokens = typeof audience === 'object' && 'push_token' in audience ? new Set(audience.push_token) : undefined;
  const byDevice = (d: DeviceRecord) => !tokens || tokens.has(d.pushToken) || (d.deviceToken !== undefined && tokens.has(d.deviceToken));
  const targets: Target[] = [];
  for (const user of root.users.all()) {
    if (user.settings.no_push || (byUser && !byUser(user))) continue;
    for (const device of user.devices.values()) if (byDevice(device)) targets.push({ user, device });
  }
  return targets;
}

/** The audience's list, when it is one (for the emptiness and 500-item checks). */
export function audienceList(audience: Audience): { name: string; items: readonly unknown[] } | undefined {
  if (audience === 'all') return undefined;
  const [name, items] = Object.entries(audience)[0]!;
  return { name, items };
}
