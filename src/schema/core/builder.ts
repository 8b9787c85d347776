// The Pothos builder, its plugins and scalars. No types are defined here: each domain file
// adds its own, and schema/index.ts assembles them.
import SchemaBuilder from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { IncomingFile } from '../../files/incoming-file';
import type { Int64 } from '../../rest/json';
import type { EndpointName } from '../../rest/endpoints';
import { DateTimeScalar, type OpaqueId, SafeIntScalar } from './scalars';

export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  Scalars: {
    // Input: parsed and checked by our ID scalar (exact-ids.ts); an opaque key's input is its text
    // (global-id-inputs.ts). Output: written exactly; an OpaqueId as its text.
    ID: { Input: Int64; Output: Int64 | string | OpaqueId };
    DateTime: { Input: number; Output: number | bigint };
    SafeInt: { Input: number; Output: number | bigint };
    // A file part of a multipart request, streamed (file-upload.ts registers the scalar).
    File: { Input: IncomingFile; Output: never };
  };
}>({
  // Fields stay nullable (Pothos's default): one that reaches the REST service may fail alone
  // without nulling its siblings. Non-null is declared where a value cannot fail.
});

/** The builder's schema types (context, scalars), for helpers generic over its refs and inputs. */
export type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('SafeInt', SafeIntScalar);

builder.queryType({ description: 'Reads of the IM service.' });
builder.mutationType({ description: 'Writes to the IM service: one mutation per write endpoint.' });

/**
 * Every field that reaches the REST service names the endpoints it may call in
 * `extensions: { endpoints: [...] }` (see `reaches`), so a test can check that the schema covers
 * the whole endpoint table.
 */
export const reaches = (...endpoints: EndpointName[]) => ({ endpoints });
