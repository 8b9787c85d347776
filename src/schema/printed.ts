// The schema as printed to schema.graphql: sorted, so diffs show only real changes.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './index';

export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
