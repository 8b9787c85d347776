// The schema-evolution check (`npm run schema:breaking`, and a test in `npm test`): shipped clients
// keep working, so schema.graphql may differ from schema.released.graphql (the last released
// schema) only as the deprecation policy allows (docs/api.md, "Deprecation policy"):
// - the type of a field, of an argument or of an input field never changes, not even "safely":
//   a new field goes beside the old one, and the old is deprecated with its removal date;
// - a field, argument or enum value goes only once the released schema deprecated it with a
//   removal date ("Removed on or after YYYY-MM-DD") that has come, and CHANGELOG.md announces it
//   under "## Unreleased …" / "### Breaking" by `Type.field` (a type no field uses any more: by `Type`);
// - nothing else that graphql's findBreakingChanges calls breaking (a new required argument or
//   input field, a type changing kind, a union or interface losing a member) is allowed at all:
//   announcing it is not enough.
import { readFileSync } from 'node:fs';
import {
  type BreakingChange,
  BreakingChangeType,
  buildSchema,
  findBreakingChanges,
  type GraphQLArgument,
  type GraphQLEnumValue,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';

/** One change the policy refuses: what it is about (`Type.field`) and why. */
export interface Violation {
  subject: string;
  problem: string;
}

/** What a change is about, as the announcement names it: "Type.field", or "Type". */
export function subjectOf(change: BreakingChange): string {
  const d = change.description;
  // "A required field f on input type T was added", "A required arg a on T.f was added"
  const added = /^A (?:required|non-null) (?:field|arg) (\w+) on (?:input type )?([\w.]+)/.exec(d);
  if (added) return added[2]!.includes('.') ? added[2]! : `${added[2]}.${added[1]}`;
  // "T.f changed type ...", "T.f arg a was removed", "T.f was removed", "ENUM_VALUE was removed from enum type E"
  const dotted = /^(\w+\.\w+)\b/.exec(d);
  if (dotted) return dotted[1]!;
  const fromType = /^(\w+) was removed from (?:enum|union) type (\w+)/.exec(d);
  if (fromType) return `${fromType[2]}.${fromType[1]}`;
  // "T was removed.", "T changed from an Object type to ...", "T no longer implements interface I."
  return /^(\w+)/.exec(d)?.[1] ?? d;
}

/** The subjects announced as breaking in CHANGELOG text: backticked names on the lines of "### Breaking" under "## Unreleased". */
export function announcedBreaking(changelog: string): Set<string> {
  const announced = new Set<string>();
  let unreleased = false;
  let breaking = false;
  for (const line of changelog.split('\n')) {
    if (line.startsWith('## ')) {
      unreleased = /^## Unreleased\b/.test(line);
      breaking = false;
    } else if (line.startsWith('### ')) {
      breaking = unreleased && /^### Breaking\b/.test(line);
    } else if (breaking) {
      for (const m of line.matchAll(/`([A-Za-z_]\w*(?:\.\w+)?)/g)) announced.add(m[1]!);
    }
  }
  return announced;
}

type Typed = GraphQLField<unknown, unknown> | GraphQLArgument | GraphQLInputField;

/** Every field, argument and input field of a schema with its type as written, by coordinate. */
function typesOf(schema: GraphQLSchema): Map<string, string> {
  const types = new Map<string, string>();
  const add = (at: string, typed: Typed) => types.set(at, String(typed.type));
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        add(`${type.name}.${field.name}`, field);
        for (const arg of field.args) add(`${type.name}.${field.name}(${arg.name}:)`, arg);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) add(`${type.name}.${field.name}`, field);
    }
  }
  return types;
}

/** Every change of a field's, an argument's or an input field's type, safe in graphql's eyes or not. */
export function typeChanges(released: GraphQLSchema, current: GraphQLSchema): Violation[] {
  const now = typesOf(current);
  const changed: Violation[] = [];
  for (const [at, type] of typesOf(released)) {
    const after = now.get(at);
    if (after !== undefined && after !== type) {
      changed.push({
        subject: at.replace(/\(.*$/, ''),
        problem: `${at} changed type from ${type} to ${after}: add a new field beside it and deprecate this one instead`,
      });
    }
  }
  return changed;
}

/** The released deprecation of what a removal took away: a field, an argument or an enum value. */
function releasedDeprecation(released: GraphQLSchema, change: BreakingChange): string | null | undefined {
  const d = change.description;
  const enumValue = /^(\w+) was removed from enum type (\w+)/.exec(d);
  if (enumValue) {
    const type = released.getType(enumValue[2]!);
    return isEnumType(type) ? type.getValues().find((v: GraphQLEnumValue) => v.name === enumValue[1])?.deprecationReason : undefined;
  }
  const member = /^(\w+)\.(\w+)(?: arg (\w+))? was removed/.exec(d);
  if (!member) return undefined;
  const type = released.getType(member[1]!);
  if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) return undefined;
  const field = type.getFields()[member[2]!];
  if (!field) return undefined;
  if (member[3] === undefined) return field.deprecationReason;
  return 'args' in field ? field.args.find((a) => a.name === member[3])?.deprecationReason : undefined;
}

const REMOVAL_DATE = /Removed on or after (\d{4}-\d{2}-\d{2})\./;
const REMOVALS: readonly BreakingChangeType[] = [
  BreakingChangeType.FIELD_REMOVED,
  BreakingChangeType.ARG_REMOVED,
  BreakingChangeType.VALUE_REMOVED_FROM_ENUM,
];
// Reported by typeChanges, with the safe changes graphql lets through.
const TYPE_CHANGES: readonly BreakingChangeType[] = [BreakingChangeType.FIELD_CHANGED_KIND, BreakingChangeType.ARG_CHANGED_KIND];

/** Why the policy refuses a breaking change graphql found; undefined when it allows it. */
function refusal(change: BreakingChange, released: GraphQLSchema, announced: Set<string>, today: string): string | undefined {
  const subject = subjectOf(change);
  const isAnnounced = announced.has(subject) || announced.has(subject.split('.')[0]!);
  if (change.type === BreakingChangeType.TYPE_REMOVED) {
    return isAnnounced ? undefined : `${change.description} Announce it under "### Breaking" in CHANGELOG.md's Unreleased section.`;
  }
  if (!REMOVALS.includes(change.type)) {
    return `${change.description} No deprecation path leads there: add what is new beside what was released (optional, or as a new field).`;
  }
  const reason = releasedDeprecation(released, change);
  const date = reason ? REMOVAL_DATE.exec(reason)?.[1] : undefined;
  if (date === undefined) return `${change.description} It was not deprecated with a removal date in the released schema.`;
  if (date > today) return `${change.description} Its removal date, ${date}, has not come.`;
  return isAnnounced ? undefined : `${change.description} Announce it under "### Breaking" in CHANGELOG.md's Unreleased section.`;
}

/** Everything in `current` that the deprecation policy does not allow against `released`. */
export function policyViolations(released: string, current: string, changelog: string, today: string): Violation[] {
  const before = buildSchema(released);
  const after = buildSchema(current);
  const announced = announcedBreaking(changelog);
  const found = typeChanges(before, after);
  for (const change of findBreakingChanges(before, after)) {
    if (TYPE_CHANGES.includes(change.type)) continue;
    const problem = refusal(change, before, announced, today);
    if (problem !== undefined) found.push({ subject: subjectOf(change), problem });
  }
  return found;
}

/** Today as the removal dates are written (UTC). */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

if (import.meta.url === `file://${process.argv[1]}`) {
  const read = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
  const found = policyViolations(read('schema.released.graphql'), read('schema.graphql'), read('CHANGELOG.md'), todayUtc());
  for (const { subject, problem } of found) console.log(`${subject}: ${problem}`);
  if (found.length > 0) process.exitCode = 1;
  else console.log('No change the deprecation policy refuses.');
}
