// Handlers of the messages endpoints. Filled in by the messages issue.
import type { HandlerMap } from '../handler';

export const messageHandlers: HandlerMap = {};
