// Apollo Client warns through the console (a missing field, a cache it cannot merge): a test of
// cached screens holds it to no warning at all.
import { afterEach, beforeEach, expect, vi } from 'vitest';

/** Registers the hooks: every test of the file ends with no console warning or error. */
export function expectNoConsoleWarnings(): void {
  let warnings: unknown[][] = [];
  beforeEach(() => {
    warnings = [];
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void warnings.push(args));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    expect(warnings).toEqual([]);
  });
}
