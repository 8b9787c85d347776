// Waits for a child process's stdout to show a line (its start-up banner); fails on exit or time-out.
import type { ChildProcess } from 'node:child_process';
import { EVENT_DEADLINE_MS } from './wait';

/** Resolves to the output so far once it matches `pattern`. */
export function waitForLine(child: ChildProcess, pattern: RegExp, ms = EVENT_DEADLINE_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`process did not start in time:\n${out}`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code}:\n${out}`));
    });
  });
}
