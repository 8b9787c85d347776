// Prints the schema, sorted, to schema.graphql (`npm run schema`); a test fails when it is stale.
import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/schema/printed';

writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
console.log('schema.graphql written');
