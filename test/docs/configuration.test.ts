// docs/configuration.md is generated from the variables' declarations (src/config/variables.ts):
// a variable added, renamed or re-documented without `npm run docs:config` fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationPage } from '../../scripts/config-docs';
import { loadConfig } from '../../src/config';
import { GATEWAY_VARIABLES, TRACING_VARIABLES } from '../../src/config/variables';

const committed = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('docs/configuration.md', () => {
  it('matches what the declarations generate (run `npm run docs:config` after changing them)', () => {
    expect(committed).toBe(configurationPage());
  });

  it('has one row per declared variable, each named once', () => {
    const names = [...GATEWAY_VARIABLES, ...TRACING_VARIABLES].map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    const rows = [...committed.matchAll(/^\| `([A-Z_0-9]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...names].sort());
  });

  it('shows as each default what an empty environment loads', () => {
    const config = loadConfig({});
    const values: Record<string, unknown> = { ...config, ...config.tracing };
    // Words (unset, empty, generated, off, see meaning) and formulas say what no value means; the
    // others are values. OTEL_SDK_DISABLED fills `enabled`, its negation.
    const shown = [...GATEWAY_VARIABLES, ...TRACING_VARIABLES].filter(
      (v) =>
        v.field !== undefined &&
        v.name !== 'OTEL_SDK_DISABLED' &&
        /^[\w./-]+$/.test(v.parser.fallback) &&
        !['unset', 'empty', 'generated', 'off'].includes(v.parser.fallback),
    );
    expect(shown.length).toBeGreaterThan(40);
    for (const v of shown) expect([v.name, String(values[v.field!])]).toEqual([v.name, v.parser.fallback]);
  });
});
