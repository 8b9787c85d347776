// Handlers of the files endpoints. Filled in by the files issue.
import type { HandlerMap } from '../handler';

export const fileHandlers: HandlerMap = {};
