// Handlers of the groups endpoints. Filled in by the groups issue.
import type { HandlerMap } from '../handler';

export const groupHandlers: HandlerMap = {};
