// All of the emulator's data, in memory, one object per domain. Domains reach each other
// through `root` (messages check group membership, push reads devices, ...).
import { TokenStore } from './auth/tokens';
import { FileState } from './files/state';
import { GroupState } from './groups/state';
import { createIds } from './ids';
import type { StoredMessage } from './messages/model';
import { MessageState } from './messages/state';
import type { EmulatorOptions } from './options';
import { PushState } from './push/state';
import { RosterState } from './roster/state';
import { UserDirectory } from './users/directory';

export class State {
  readonly ids = createIds();
  readonly users: UserDirectory;
  readonly tokens: TokenStore;
  readonly messages: MessageState;
  readonly files: FileState;
  readonly push: PushState;
  readonly groups: GroupState;
  readonly roster: RosterState;
  /** Observers of every stored message (the callback sender attaches here: callbacks/sender.ts). */
  readonly stored = new Set<(m: StoredMessage) => void>();

  constructor(
    readonly options: EmulatorOptions,
    /** Milliseconds since the epoch; tests may move it. */
    readonly clock: () => number = Date.now,
  ) {
    this.users = new UserDirectory(this.ids);
    this.tokens = new TokenStore(options.tokenTtlMs);
    this.messages = new MessageState(this);
    this.files = new FileState(this);
    this.push = new PushState();
    this.groups = new GroupState(this);
    this.roster = new RosterState(this);
  }
}
