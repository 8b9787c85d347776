// The numeric and string codes of the spec become GraphQL enums declared beside their domain
// (user/enums.ts, group/enums.ts, ...). Each enum value's `value` is the code sent to or received from the REST service.
import { builder } from './builder';

type Values = Record<string, { value: number | string; description: string }>;

export function codeEnum<const V extends Values>(name: string, description: string, values: V) {
  return builder.enumType(name, { description, values });
}
