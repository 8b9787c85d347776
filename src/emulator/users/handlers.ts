// Handlers of the user endpoints (document 2), one file per area.
import type { HandlerMap } from '../handler';
import { accountHandlers } from './accounts';
import { adminHandlers } from './admin';
import { deviceHandlers } from './devices';
import { profileHandlers } from './profile';
import { pushPrefHandlers } from './push-prefs';
import { registerHandlers } from './register';
import { settingHandlers } from './settings';

export const userHandlers: HandlerMap = {
  ...registerHandlers,
  ...accountHandlers,
  ...adminHandlers,
  ...profileHandlers,
  ...settingHandlers,
  ...deviceHandlers,
  ...pushPrefHandlers,
};
