// Apollo Client reports cache trouble (missing fields, merges it cannot make) on the console, not
// by throwing: a test file that calls this fails any test during which anything was warned.
import { afterEach, beforeEach, expect, vi } from 'vitest';

export function failOnConsoleWarnings(): void {
  let warnings: unknown[][];
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
