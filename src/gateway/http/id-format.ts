// Which IDs a request's answer carries (schema/core/global-id.ts): the `X-ID-Format` header, or
// `connectionParams["x-id-format"]` on a WebSocket, read where the request's context is made.
import { GraphQLError } from 'graphql';
import { ID_FORMATS, type IdFormat } from '../../context';

const isIdFormat = (value: string): value is IdFormat => (ID_FORMATS as readonly string[]).includes(value);

/**
 * The ID format a request asks for, else the gateway's default. Another value is refused
 * (BAD_REQUEST, HTTP 400), so a typo does not silently answer the other format.
 */
export function idFormatFrom(lookup: (name: string) => string | undefined, fallback: IdFormat): IdFormat {
  const asked = lookup('x-id-format')?.trim().toLowerCase();
  if (asked === undefined || asked === '') return fallback;
  if (isIdFormat(asked)) return asked;
  throw new GraphQLError(`X-ID-Format must be "global" or "service", got ${JSON.stringify(asked.slice(0, 40))}`, {
    extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
  });
}
