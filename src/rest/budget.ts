// A budget of REST calls for one request: each call the request's clients send takes one (a read
// answered from the request's memo takes none); past the limit a call fails at once with
// RestBudgetExceeded, before anything is sent. A plain value, like UpstreamError: the GraphQL edge
// maps it (schema/core/upstream-errors.ts), so the field that asked fails and its siblings keep their data.
import { GatewayError } from './errors';

export class RestBudgetExceeded extends GatewayError {
  constructor(
    readonly endpoint: string,
    readonly limit: number,
  ) {
    super(`${endpoint} not called: this request has made its ${limit} REST calls (MAX_REST_CALLS)`, 'UPSTREAM_BUDGET_EXCEEDED', undefined, {
      endpoint,
      limit,
    });
  }
}

export interface CallBudget {
  readonly limit: number;
  /** Calls taken so far (refused ones not included). */
  readonly used: number;
  /** Takes one call for `endpoint`, or throws RestBudgetExceeded. */
  take(endpoint: string): void;
  /** A new request's worth (each subscription event is resolved as a new request). */
  reset(): void;
}

// A class: one is made per request, and its methods need not be made with it.
class Budget implements CallBudget {
  used = 0;

  constructor(readonly limit: number) {}

  take(endpoint: string): void {
    if (this.used >= this.limit) throw new RestBudgetExceeded(endpoint, this.limit);
    this.used++;
  }

  reset(): void {
    this.used = 0;
  }
}

export function callBudget(limit: number): CallBudget {
  return new Budget(limit);
}
