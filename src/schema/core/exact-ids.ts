// Pothos always builds `ID` as graphql-js's GraphQLID, and graphql-tools' mapSchema and
// lexicographicSortSchema leave specified scalars alone. Our ID must validate int64 decimals on
// input ("abc" is BAD_USER_INPUT before any REST call) and write bigints exactly on output, so
// this pass points every reference to the built-in ID at our scalar, once, at schema build.
import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLScalarType,
  type GraphQLSchema,
  type GraphQLType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';

function swap<T extends GraphQLType>(type: T, id: GraphQLScalarType): T {
  if (isNonNullType(type)) return new GraphQLNonNull(swap(type.ofType, id)) as unknown as T;
  if (isListType(type)) return new GraphQLList(swap(type.ofType, id)) as unknown as T;
  return (type === GraphQLID ? id : type) as T;
}

export function useExactIds(schema: GraphQLSchema, id: GraphQLScalarType): GraphQLSchema {
  const typeMap = schema.getTypeMap() as Record<string, GraphQLType>;
  for (const type of Object.values(typeMap)) {
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        field.type = swap(field.type, id);
        for (const arg of field.args) arg.type = swap(arg.type, id);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) field.type = swap(field.type, id);
    }
  }
  for (const directive of schema.getDirectives()) {
    for (const arg of directive.args) arg.type = swap(arg.type, id);
  }
  if (typeMap.ID) typeMap.ID = id;
  return schema;
}
