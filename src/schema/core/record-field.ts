// The one way to declare a field backed by a record the service answers (a profile, a group's
// summary or info, settings): `recordField(read)` gives a resolver maker, and each field picks
// its value from the record. `read` goes through the request's loaders or REST memo, so any
// number of fields of one record cost one REST call.
import type { GatewayContext } from '../../context';

export const recordField =
  <P, R>(read: (parent: P, ctx: GatewayContext) => Promise<R>) =>
  <T>(pick: (record: R) => T) =>
  (parent: P, _args: object, ctx: GatewayContext): Promise<T> =>
    read(parent, ctx).then(pick);
