// PushState: the emulator's push data. Filled in by the push handlers' issue.
import type { State } from '../state';

export class PushState {
  constructor(readonly root: State) {}
}
