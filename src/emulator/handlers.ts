// Every handler of the emulator, one map per spec area.
import { aiHandlers } from './ai/send';
import { fileHandlers } from './files/handlers';
import { groupHandlers } from './groups/handlers';
import type { HandlerMap } from './handler';
import { messageHandlers } from './messages/handlers';
import { pushHandlers } from './push/handlers';
import { rosterHandlers } from './roster/handlers';
import { tokenHandlers } from './tokens/handlers';
import { userHandlers } from './users/handlers';

export const handlers: HandlerMap = {
  ...tokenHandlers,
  ...userHandlers,
  ...messageHandlers,
  ...fileHandlers,
  ...pushHandlers,
  ...groupHandlers,
  ...rosterHandlers,
  ...aiHandlers,
};
