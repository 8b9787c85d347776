// The console spy of quiet probes is the file's (or block's) own: the files of one worker share
// their modules, so a spy left behind would swallow (and count) the next file's console.error.
import { describe, expect, it } from 'vitest';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

const original = console.error;

describe('a block of quiet probes', () => {
  expectNoErrorLogs();
  it('watches console.error while it runs', () => {
    expect(console.error).not.toBe(original);
  });
});

it('puts the real console.error back when the block ends', () => {
  expect(console.error).toBe(original);
});
