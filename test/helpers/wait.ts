// Waiting in tests: a pause (for a delay a scripted server plays, or a window in which nothing may
// arrive) and a bounded wait for a condition, which fails with what it waited for.
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, checking every 20 ms; fails with `what` after `ms`. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}
