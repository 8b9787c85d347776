// For probes whose requests must be refused quietly: any console.error during a test fails it.
import { afterEach, expect, vi } from 'vitest';

export function expectNoErrorLogs(): void {
  const logged = vi.spyOn(console, 'error');
  afterEach(() => {
    expect(logged).not.toHaveBeenCalled();
    logged.mockClear();
  });
}
