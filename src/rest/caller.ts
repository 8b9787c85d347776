// Who a REST call is made for: the caller of the request's identity (src/identity.ts), whose
// fields the client forwards as the upstream's common headers.
export type { Caller } from '../identity';
