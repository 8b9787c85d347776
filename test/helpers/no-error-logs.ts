// For probes whose requests must be refused quietly: any console.error during a test fails it.
// The files share their modules (vitest's isolate: false), so the spy is put back when the file
// ends: console.error stays the real one for the files that run after it in the same worker.
import { afterAll, afterEach, beforeAll, expect, type MockInstance, vi } from 'vitest';

export function expectNoErrorLogs(): void {
  let logged: MockInstance<typeof console.error> | undefined;
  beforeAll(() => {
    logged = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    expect(logged).not.toHaveBeenCalled();
    logged?.mockClear();
  });
  afterAll(() => {
    logged?.mockRestore();
    logged = undefined;
  });
}
