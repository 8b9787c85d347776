// Per-channel statistics of a push task: target, sent and received for each of the 8 channels.
import { PUSH_CHANNELS, type PushChannel, type PushTaskStats } from '../../rest/records';
import type { Outcome } from './channels';

interface Counters {
  target: number;
  sent: number;
  received: number;
}

export class TaskStats {
  private readonly counters = new Map<PushChannel, Counters>(PUSH_CHANNELS.map((c) => [c, { target: 0, sent: 0, received: 0 }]));

  constructor(readonly taskId: number) {}

  count(channel: PushChannel, outcome: Outcome): void {
    const c = this.counters.get(channel)!;
    c.target++;
    if (outcome.sent) c.sent++;
    if (outcome.received) c.received++;
  }

  /** The wire form: every channel's three counters, zeros included. */
  toWire(): PushTaskStats {
    const flat: Record<string, number> = { task_id: this.taskId };
    for (const [channel, c] of this.counters) {
      flat[`${channel}_received`] = c.received;
      flat[`${channel}_sent`] = c.sent;
      flat[`${channel}_target`] = c.target;
    }
    // Every key of PushTaskStats was just written: task_id and each channel's three counters.
    return flat as PushTaskStats;
  }
}
