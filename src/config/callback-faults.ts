// EMULATOR_CALLBACK_FAULTS: what the emulator's callback sender does wrong on purpose, so that
// client teams and tests see the receiver cope with a service that drops, repeats, delays and
// reorders its callbacks (document 6 guarantees none of these). Parsed here, with the other
// variables, so that a bad value stops the start with one line; applied in src/emulator/callbacks/.
import { ConfigError } from './parsers';

export interface CallbackFaults {
  /** Percent (0-100) of callbacks never sent. */
  drop: number;
  /** Percent sent twice. */
  duplicate: number;
  /** Percent held back `delayMs` before sending. */
  delay: number;
  delayMs: number;
  /** Percent held back until the next callback has been sent (an order swap). */
  reorder: number;
  /** Seed of the draws: the same seed and the same messages give the same faults. Unset: random. */
  seed: number | undefined;
}

export const NO_FAULTS: CallbackFaults = { drop: 0, duplicate: 0, delay: 0, delayMs: 0, reorder: 0, seed: undefined };

export const CALLBACK_FAULTS_SYNTAX = '`drop=P,duplicate=P,delay=P:MS,reorder=P,seed=N` (P a percentage, any subset)';

const PERCENT = /^\d{1,3}(\.\d+)?$/;

function percent(name: string, key: string, value: string): number {
  const n = Number(value);
  if (!PERCENT.test(value) || n > 100)
    throw new ConfigError(`${name}: ${key} must be a percentage from 0 to 100 (got ${JSON.stringify(value)})`);
  return n;
}

function wholeNumber(name: string, key: string, value: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) > max)
    throw new ConfigError(`${name}: ${key} must be an integer from 0 to ${max} (got ${JSON.stringify(value)})`);
  return Number(value);
}

/** `drop=10,duplicate=5,delay=20:500,reorder=10,seed=7`; empty: no faults. */
export function parseCallbackFaults(text: string, name = 'EMULATOR_CALLBACK_FAULTS'): CallbackFaults {
  const faults = { ...NO_FAULTS };
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [key, value = ''] = entry.split('=', 2).map((s) => s.trim()) as [string, string?];
    switch (key) {
      case 'drop':
      case 'duplicate':
      case 'reorder':
        faults[key] = percent(name, key, value);
        break;
      case 'delay': {
        const [share = '', ms = ''] = value.split(':', 2);
        faults.delay = percent(name, key, share);
        faults.delayMs = wholeNumber(name, 'delay (after the colon, ms)', ms, 600_000);
        break;
      }
      case 'seed':
        faults.seed = wholeNumber(name, key, value, 2 ** 32 - 1);
        break;
      default:
        throw new ConfigError(`${name}: unknown fault ${JSON.stringify(key)}; expected ${CALLBACK_FAULTS_SYNTAX}`);
    }
  }
  return faults;
}
