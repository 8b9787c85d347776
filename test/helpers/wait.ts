// Waiting in tests: a pause (for a delay a scripted server plays, or a window in which nothing may
// arrive) and a bounded wait for a condition, which fails with what it waited for. The suite must
// hold on a shared machine whose cores are all busy (`npm run test:stress`), so the deadline is
// generous: a right test still ends as soon as its event arrives, and a wrong one fails on the
// wrong value it gets.

/** How long a test waits for something that must happen. */
export const EVENT_DEADLINE_MS = 30_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, checking every `everyMs`; fails with `what` after `ms`. */
export async function until(what: string, done: () => boolean | Promise<boolean>, ms = EVENT_DEADLINE_MS, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(everyMs);
  }
}
