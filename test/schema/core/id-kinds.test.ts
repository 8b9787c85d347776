// ID kinds are declared at each argument and input field (id-kinds.ts), and the global-ID
// conversion reads the declaration, never the name: an ID input without one would silently refuse
// every global ID, so the whole schema is held to one here.
import {
  graphql,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../../src/schema';
import { useExactIds } from '../../../src/schema/core/exact-ids';
import { encodeGlobalId } from '../../../src/schema/core/global-id';
import { useGlobalIdInputs } from '../../../src/schema/core/global-id-inputs';
import { ALL_ID_KINDS, idDeclarationOf, idInput, idListInput } from '../../../src/schema/core/id-kinds';
import { IDScalar } from '../../../src/schema/core/scalars';

/** Every argument and input field of type ID, [ID] or ID! (in any wrapping), by its coordinate. */
function idInputsOf(target: GraphQLSchema) {
  const found: { at: string; input: Parameters<typeof idDeclarationOf>[0] }[] = [];
  for (const type of Object.values(target.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args)
          if (getNamedType(arg.type).name === 'ID') found.push({ at: `${type.name}.${field.name}(${arg.name}:)`, input: arg });
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        if (getNamedType(field.type).name === 'ID') found.push({ at: `${type.name}.${field.name}`, input: field });
    }
  }
  return found;
}

/** The coordinates of ID inputs that neither declare kinds nor are marked as service IDs. */
const undeclared = (target: GraphQLSchema) =>
  idInputsOf(target)
    .filter(({ input }) => {
      const declaration = idDeclarationOf(input);
      return !declaration || ('for' in declaration ? declaration.for.length === 0 : !('serviceId' in declaration || 'key' in declaration));
    })
    .map(({ at }) => at);

describe('ID kinds declared at every ID input', () => {
  it('every ID argument and input field of the schema declares its kinds or is marked as a service ID', () => {
    expect(idInputsOf(schema).length).toBeGreaterThan(70);
    expect(undeclared(schema)).toEqual([]);
  });

  it('declares only kinds that exist', () => {
    for (const { at, input } of idInputsOf(schema)) {
      const declaration = idDeclarationOf(input);
      if (declaration && 'for' in declaration) for (const kind of declaration.for) expect(ALL_ID_KINDS, at).toContain(kind);
    }
  });

  it('finds an undeclared ID argument, list argument and input field, whatever their names', () => {
    const Input = new GraphQLInputObjectType({ name: 'PeekInput', fields: { someone: { type: GraphQLID } } });
    const bare = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          peek: {
            type: GraphQLString,
            args: {
              messageId: { type: new GraphQLNonNull(GraphQLID) },
              ids: { type: new GraphQLList(new GraphQLNonNull(GraphQLID)) },
              input: { type: Input },
              declared: { type: GraphQLID, extensions: idInput({ serviceId: true, required: false, description: '' }).extensions },
            },
          },
        },
      }),
    });
    expect(undeclared(bare).sort()).toEqual(['PeekInput.someone', 'Query.peek(ids:)', 'Query.peek(messageId:)']);
  });
});

describe('the global-ID conversion reads the declaration, not the name', () => {
  const echo = (_root: unknown, args: Record<string, unknown>) =>
    JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' || typeof v === 'number' ? String(v) : v));
  const Input = new GraphQLInputObjectType({
    name: 'EchoInput',
    fields: { where: { type: GraphQLID, extensions: idInput({ for: 'Conversation', required: false, description: '' }).extensions } },
  });
  const built = useGlobalIdInputs(
    useExactIds(
      new GraphQLSchema({
        query: new GraphQLObjectType({
          name: 'Query',
          fields: {
            echo: {
              type: GraphQLString,
              resolve: echo,
              args: {
                // Names the old pattern read otherwise: `peer` took no global ID, `messageId` a Message's.
                peer: { type: GraphQLID, extensions: idInput({ for: 'Message', required: false, description: '' }).extensions },
                messageId: { type: GraphQLID, extensions: idInput({ serviceId: true, required: false, description: '' }).extensions },
                files: {
                  type: new GraphQLList(GraphQLID),
                  extensions: idListInput({ for: 'SharedFile', required: false, description: '' }).extensions,
                },
                input: { type: Input },
              },
            },
          },
        }),
      }),
      IDScalar,
    ),
  );
  const run = (source: string) => graphql({ schema: built, source });
  const message = encodeGlobalId('Message', [7, 1552747048460091409n]);

  it('turns a global ID of a declared kind into its service ID, in an argument, a list and an input field', async () => {
    const files = [encodeGlobalId('SharedFile', [3, 44]), '45'];
    const reply = await run(
      `{ echo(peer: "${message}", files: ${JSON.stringify(files)}, input: { where: "${encodeGlobalId('Conversation', [9])}" }) }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(JSON.parse(reply.data?.echo as string)).toEqual({ peer: '1552747048460091409', files: ['44', '45'], input: { where: '9' } });
  });

  it('refuses a global ID of another kind as BAD_USER_INPUT naming the field, a service ID argument every global ID', async () => {
    const wrong = await run(`{ echo(input: { where: "${message}" }) }`);
    expect(wrong.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'input.where' } });
    expect(wrong.errors?.[0]?.message).toBe('input.where: takes a Conversation ID; the global ID given names a Message');

    const service = await run(`{ echo(messageId: "${message}") }`);
    expect(service.errors?.[0]?.message).toBe('messageId: takes a service ID (a decimal int64); the global ID given names a Message');
    expect(JSON.parse((await run('{ echo(messageId: "12") }')).data?.echo as string)).toEqual({ messageId: '12' });
  });
});
