// Writes docs/configuration.md from the declarations of src/config/variables.ts
// (`npm run docs:config`); test/docs/configuration.test.ts fails when the page is stale.
import { writeFileSync } from 'node:fs';
import { EMULATOR_VARIABLES } from '../src/config';
import { GATEWAY_VARIABLES, GROUPS, type Group, TRACING_VARIABLES, type Variable } from '../src/config/variables';

const HEAD = `# Configuration

<!-- Generated from src/config/variables.ts by \`npm run docs:config\`: edit the declarations, not this page. -->

Everything is set by environment variables, read once at start. A bad value stops the start with
one line naming the variable; an empty variable counts as unset. Flags take \`true\` or \`false\`
(also \`1\`/\`0\`, \`yes\`/\`no\`, \`on\`/\`off\`). The emulator alone (\`npm run emulator\`) reads
${EMULATOR_VARIABLES.map((name) => `\`${name}\``)
  .join(', ')
  .replace(/, ([^,]+)$/, ' and $1')}.
`;

/** A table cell: one line, with the pipes of its text escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

function row(v: Variable): string {
  return `| \`${v.name}\` | ${cell(v.default ?? v.parser.fallback)} | ${cell(v.parser.accepts)} | ${cell(v.doc)} |`;
}

export function configurationPage(): string {
  const variables: Variable[] = [...GATEWAY_VARIABLES, ...TRACING_VARIABLES];
  const sections = (Object.keys(GROUPS) as Group[]).map((group) => {
    const rows = variables.filter((v) => v.group === group).map(row);
    return [`## ${GROUPS[group]}`, '', '| variable | default | accepts | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
  });
  return `${HEAD}\n${sections.join('\n\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../docs/configuration.md', import.meta.url), configurationPage());
  console.log('docs/configuration.md written');
}
