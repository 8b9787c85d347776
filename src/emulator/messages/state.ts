// MessageState: the emulator's messages data. Filled in by the messages handlers' issue.
import type { State } from '../state';

export class MessageState {
  constructor(readonly root: State) {}
}
