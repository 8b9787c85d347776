// FileState: the emulator's files data. Filled in by the files handlers' issue.
import type { State } from '../state';

export class FileState {
  constructor(readonly root: State) {}
}
