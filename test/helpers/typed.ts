// Runs a generated typed document against a stack: results and variables typed by the schema.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { GqlReply, Stack } from './stack';

export function run<R, V extends Record<string, unknown>>(
  stack: Stack,
  document: TypedDocumentNode<R, V>,
  variables: V,
  headers?: Record<string, string>,
): Promise<GqlReply<R>> {
  return stack.gql<R>(print(document), variables, headers);
}
