// The benchmarks' parent side of a child process: request/reply over its IPC channel.
import type { ChildProcess } from 'node:child_process';

export /** Request/reply over a child's IPC channel; a `failed` message or the child's exit rejects. */
function channel<To, From extends { type: string; error?: string }>(child: ChildProcess, name: string) {
  const inbox: From[] = [];
  let wake = () => {};
  child.on('message', (m: From) => {
    inbox.push(m);
    wake();
  });
  child.on('exit', () => wake());
  return async function ask<T extends From['type']>(message: To | undefined, type: T): Promise<Extract<From, { type: T }>> {
    if (message !== undefined) child.send(message as object);
    for (;;) {
      const reply = inbox.shift();
      if (reply?.type === 'failed') throw new Error(`${name}: ${reply.error}`);
      if (reply?.type === type) return reply as Extract<From, { type: T }>;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited`);
      if (!reply) await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}
