// Handlers of the group endpoints (document 3, 4.1-4.53), one map per area.
import type { HandlerMap } from '../handler';
import { announcementHandlers } from './announcements';
import { sharedFileHandlers } from './files';
import { lifecycleHandlers } from './lifecycle';
import { memberHandlers } from './members';
import { membershipHandlers } from './membership';
import { moderationHandlers } from './moderation';
import { settingsHandlers } from './settings';

export const groupHandlers: HandlerMap = {
  ...lifecycleHandlers,
  ...settingsHandlers,
  ...memberHandlers,
  ...membershipHandlers,
  ...moderationHandlers,
  ...announcementHandlers,
  ...sharedFileHandlers,
};
