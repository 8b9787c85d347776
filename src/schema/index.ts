// Assembles the schema from the domain files. Nothing but imports and the build.
import { builder } from './builder';
import { useExactIds } from './exact-ids';
import { IDScalar } from './scalars';
import './token';
import './user';

export const schema = useExactIds(builder.toSchema(), IDScalar);
