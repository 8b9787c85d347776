// Handlers of the push endpoints. Filled in by the push issue.
import type { HandlerMap } from '../handler';

export const pushHandlers: HandlerMap = {};
