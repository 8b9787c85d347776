// Which IDs a request's answer carries (schema/core/global-id.ts): the `X-ID-Format` header, or
// `connectionParams["x-id-format"]` on a WebSocket, read with the identity (src/identity.ts) and
// refused where the request's context is made.
import { GraphQLError } from 'graphql';
import type { Identity, IdFormat } from '../../identity';

/**
 * The ID format the request asked for, else the gateway's default (the identity read it). Another
 * value is refused (BAD_REQUEST, HTTP 400), so a typo does not silently answer the other format.
 */
export function checkedIdFormat(identity: Identity): IdFormat {
  const asked = identity.refusedIdFormat;
  if (asked === undefined) return identity.idFormat;
  throw new GraphQLError(`X-ID-Format must be "global" or "service", got ${JSON.stringify(asked.slice(0, 40))}`, {
    extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
  });
}
