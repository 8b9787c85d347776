// Which IDs an ID argument or input field takes is declared where it is declared, not guessed from
// its name: `t.arg(idInput({ for: 'Message', ... }))`, `t.field(idListInput({ for: 'User', ... }))`
// in an input type. The declaration rides in the field's extensions (never printed, so the schema
// text is the same), and global-id-inputs.ts reads it to turn a global ID of a declared kind into its
// service ID and to refuse one of another kind. test/schema/core/id-kinds.test.ts holds every ID
// input of the schema to a declaration.
import type { GraphQLArgument, GraphQLInputField } from 'graphql';
import { GLOBAL_KINDS, type GlobalKind } from './global-id';

/**
 * The kinds of object an ID names. User and Group keep the service's int64 as their global ID, so
 * an input of theirs takes the service ID in either ID format; the others have global IDs of their own.
 */
export type IdKind = 'User' | 'Group' | GlobalKind;

/** Every kind: what `node(id:)` takes. */
export const ALL_ID_KINDS: readonly IdKind[] = ['User', 'Group', ...(Object.keys(GLOBAL_KINDS) as GlobalKind[])];

/**
 * What an ID input takes: IDs of these kinds, a service ID no object's global ID stands for (a push
 * task), or an opaque key that names no object (`transactionId`: any string, handed on as its text).
 */
export type IdDeclaration = { readonly for: readonly IdKind[] } | { readonly serviceId: true } | { readonly key: true };

/** The kinds an ID input takes, one or several. */
export type IdKinds = IdKind | readonly IdKind[];

type Takes = { for: IdKinds } | { serviceId: true } | { key: true };

interface IdOptions<Req extends boolean> {
  required: Req;
  description: string;
}

const KEY = 'idKinds';

function declarationOf(takes: Takes): { [KEY]: IdDeclaration } {
  if ('serviceId' in takes) return { [KEY]: { serviceId: true } };
  if ('key' in takes) return { [KEY]: { key: true } };
  return { [KEY]: { for: typeof takes.for === 'string' ? [takes.for] : takes.for } };
}

/** The options of an ID argument (`t.arg(…)`) or input field (`t.field(…)`) with the kinds it takes. */
export function idInput<const Req extends boolean>(o: Takes & IdOptions<Req>) {
  return { type: 'ID' as const, required: o.required, description: o.description, extensions: declarationOf(o) };
}

/** The same for a list of IDs (`[ID!]`, or `[ID!]!` when required). */
export function idListInput<const Req extends boolean>(o: Takes & IdOptions<Req>) {
  return { type: ['ID'] as ['ID'], required: o.required, description: o.description, extensions: declarationOf(o) };
}

/** The declaration of an argument or input field of the built schema; undefined when it has none. */
export function idDeclarationOf(input: GraphQLArgument | GraphQLInputField): IdDeclaration | undefined {
  return input.extensions[KEY] as IdDeclaration | undefined;
}

/** Whether the input is an opaque key: any string, never an object's ID. */
export const isKeyInput = (declaration: IdDeclaration | undefined): boolean => declaration !== undefined && 'key' in declaration;

/** The kinds whose own global IDs it turns into service IDs: none for a service ID, a User's or a Group's. */
export function globalKindsOf(declaration: IdDeclaration | undefined): readonly GlobalKind[] {
  if (!declaration || !('for' in declaration)) return [];
  return declaration.for.filter((kind): kind is GlobalKind => Object.hasOwn(GLOBAL_KINDS, kind));
}
