// PushState: push tasks with their statistics, and the request_ids already pushed.
import type { PushTaskStats } from '../../rest/records';
import type { TaskStats } from './stats';

export class PushState {
  private readonly tasks = new Map<number, TaskStats>();
  /** request_id → the task it created; a repeat answers that task (no expiry is documented). */
  private readonly requests = new Map<string, number>();

  taskOfRequest(requestId: string): number | undefined {
    return this.requests.get(requestId);
  }

  add(task: TaskStats, requestId: string | undefined): void {
    this.tasks.set(task.taskId, task);
    if (requestId) this.requests.set(requestId, task.taskId);
  }

  /** Statistics of the known tasks among `ids`, in the order asked, each once; unknown IDs are left out. */
  stats(ids: readonly number[]): PushTaskStats[] {
    const out: PushTaskStats[] = [];
    for (const id of new Set(ids)) {
      const task = this.tasks.get(id);
      if (task) out.push(task.toWire());
    }
    return out;
  }
}
