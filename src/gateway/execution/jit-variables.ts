// graphql-jit coerces variables itself and treats a scalar named `ID` as the built-in one: it
// passes the client's string through without our ID scalar's parseValue, so `"000123"` reached
// resolvers as written while graphql-js gave them 123 (found by test/gateway/differential.test.ts).
// Compiled runs therefore get the variables graphql-js coerced at the ID positions, written as the
// canonical decimal string graphql-jit passes on; every other value stays as the client sent it,
// for graphql-jit calls the other scalars' parseValue itself (DateTime's would refuse its own output).
// A global ID is passed as its text: resolvers read it with globalIdOf (schema/core/global-id.ts).
import {
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type VariableDefinitionNode,
} from 'graphql';
import { GlobalId } from '../../schema/core/global-id';

type Values = Record<string, unknown>;

function canonical(type: GraphQLInputType, raw: unknown, coerced: unknown): unknown {
  if (isNonNullType(type)) return canonical(type.ofType, raw, coerced);
  if (raw === null || raw === undefined || coerced === null || coerced === undefined) return raw;
  if (isScalarType(type)) return type.name === 'ID' ? (coerced instanceof GlobalId ? coerced.text : String(coerced)) : raw;
  if (isListType(type)) {
    // A single value stands for a list of one (graphql-js wraps it; so does graphql-jit).
    if (!Array.isArray(raw)) return canonical(type.ofType, raw, (coerced as unknown[])[0]);
    return raw.map((item, i) => canonical(type.ofType, item, (coerced as unknown[])[i]));
  }
  if (isInputObjectType(type) && typeof raw === 'object') {
    const fields = type.getFields();
    const out: Values = {};
    for (const [name, value] of Object.entries(raw as Values)) {
      const field = fields[name];
      out[name] = field ? canonical(field.type, value, (coerced as Values)[name]) : value;
    }
    return out;
  }
  return raw;
}

/** The variables to hand a compiled operation, from the client's and graphql-js's coerced ones. */
export function jitVariables(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[], raw: Values, coerced: Values): Values {
  const out: Values = { ...raw };
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type && name in raw) out[name] = canonical(type, raw[name], coerced[name]);
  }
  return out;
}
