// Assembles the schema from the domain files. Nothing but imports and the build.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder';
import { useExactIds } from './exact-ids';
import { IDScalar } from './scalars';
import './user';

export const schema = useExactIds(builder.toSchema(), IDScalar);

/** The schema as printed to schema.graphql: sorted, so diffs show only real changes. */
export const sortedSchema = () => lexicographicSortSchema(schema);
