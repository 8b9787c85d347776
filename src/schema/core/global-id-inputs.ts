// Arguments that take one service ID accept the global ID of that kind too (a client that keys its
// cache by global IDs passes `message.id` to `recallMessage`). The ID scalar parses a global ID to
// a GlobalId; this pass, run once at schema build, wraps each field with ID arguments so that its
// resolver sees only service IDs: a global ID of a kind the argument declares (id-kinds.ts) becomes
// its service ID, one of another kind is BAD_USER_INPUT naming the argument. `node(id:)` reads its own.
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLInputField,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isObjectType,
} from 'graphql';
import { idText } from '../../rest/json';
import { GlobalId, globalIdOf, type GlobalKind, serviceIdOf } from './global-id';
import { globalKindsOf, idDeclarationOf, isKeyInput } from './id-kinds';
import { badUserInput } from './inputs';
import { notAnId } from './scalars';

/** How to reach the IDs of one argument: an ID (maybe a list of them), or an input object's fields. */
type Plan = { kind: 'id'; kinds: readonly GlobalKind[] } | { kind: 'key' } | { kind: 'object'; fields: Map<string, Plan> };

function planOf(input: GraphQLArgument | GraphQLInputField, seen: Set<string>): Plan | undefined {
  const named = getNamedType(input.type);
  if (named.name === 'ID') {
    const declaration = idDeclarationOf(input);
    return isKeyInput(declaration) ? { kind: 'key' } : { kind: 'id', kinds: globalKindsOf(declaration) };
  }
  if (!isInputObjectType(named) || seen.has(named.name)) return undefined;
  seen.add(named.name);
  const fields = new Map<string, Plan>();
  for (const inner of Object.values(named.getFields())) {
    const plan = planOf(inner, seen);
    if (plan) fields.set(inner.name, plan);
  }
  seen.delete(named.name);
  return fields.size > 0 ? { kind: 'object', fields } : undefined;
}

/** The value with each global ID replaced by its service ID (in place: the replacement is idempotent). */
function convert(value: unknown, plan: Plan, path: string): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = convert(value[i], plan, `${path}[${i}]`);
    return value;
  }
  // An opaque key reaches its resolver as the text sent, whatever the ID scalar made of it.
  if (plan.kind === 'key') return keyText(value);
  if (plan.kind === 'id') {
    const global = globalIdOf(value);
    if (!global) {
      refuseNonId(value, path);
      return value;
    }
    const id = serviceIdOf(global, plan.kinds);
    if (id === undefined) {
      const takes = plan.kinds.length > 0 ? `a ${plan.kinds.join(' or ')} ID` : 'a service ID (a decimal int64)';
      throw badUserInput(path, `takes ${takes}; the global ID given names a ${global.kind}`);
    }
    return id;
  }
  const record = value as Record<string, unknown>;
  for (const [name, inner] of plan.fields) if (name in record) record[name] = convert(record[name], inner, `${path}.${name}`);
  return record;
}

/** The text a client sent for an opaque key: the scalar parsed it to an Int64, a GlobalId or an OpaqueId. */
function keyText(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'number') return idText(value);
  return value instanceof GlobalId ? value.text : String(value);
}

/** A string that is no ID, sent to an input naming an object: BAD_USER_INPUT naming the input. */
export function refuseNonId(value: unknown, path: string): void {
  const why = notAnId(value);
  if (why !== undefined) throw badUserInput(path, why);
}

function wrap<F extends GraphQLFieldResolver<unknown, unknown>>(resolve: F, plans: Map<string, Plan>): F {
  // Every call of the field runs this: a plain list, no entry arrays made per call.
  const names = [...plans.keys()];
  const list = [...plans.values()];
  return function (this: unknown, source, args, context, info) {
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (args[name] !== undefined) args[name] = convert(args[name], list[i]!, name);
    }
    return resolve.call(this, source, args, context, info);
  } as F;
}

/** Whether `node(id:)`-like fields read their global IDs themselves: they say so in extensions. */
const readsGlobalIds = (field: GraphQLField<unknown, unknown>) => field.extensions.readsGlobalIds === true;

export function useGlobalIdInputs(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0 || readsGlobalIds(field)) continue;
      const plans = new Map<string, Plan>();
      for (const arg of field.args) {
        const plan = planOf(arg, new Set());
        if (plan) plans.set(arg.name, plan);
      }
      if (plans.size === 0) continue;
      if (field.resolve) field.resolve = wrap(field.resolve, plans);
      if (field.subscribe) field.subscribe = wrap(field.subscribe, plans);
    }
  }
  return schema;
}
