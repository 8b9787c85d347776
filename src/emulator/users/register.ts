// 1.32–1.34: registration. These work without an access-token.
import type { HandlerMap } from '../handler';
import { deviceFor } from '../tokens/handlers';
import { NO_USER, perEntry } from './batch';
import { settingsOf } from './model';

export const registerHandlers: HandlerMap = {
  'POST /user/register/v2': (p, ctx) => settingsOf(ctx.state.users.register(p.username, p.password, ctx.now)),

  'POST /user/register/push': (p, ctx) => {
    const user = ctx.state.users.register(p.username, p.password, ctx.now);
    if (p.alias !== undefined) user.pushAlias = p.alias;
    if (p.device_guid !== undefined) {
      const device = deviceFor(user, p.device_guid);
      if (p.push_token !== undefined) device.pushToken = p.push_token;
      user.settings.push_token = device.pushToken;
    } else if (p.push_token !== undefined) {
      user.settings.push_token = p.push_token;
    }
    return settingsOf(user);
  },

  // One result per entry: a taken name fails that entry only.
  'POST /user/register/batch': (p, ctx) =>
    (p.list ?? []).map((entry) =>
      perEntry({ user_id: NO_USER, username: entry.username }, () => {
        const user = ctx.state.users.register(entry.username, entry.password, ctx.now);
        return { user_id: user.id, username: user.username };
      }),
    ),
};
