// Demand control before execution, on every transport (HTTP on either path, SSE, graphql-ws: the
// same envelop hooks run): an operation estimated (cost-estimate.ts) to make more than maxCost
// REST calls is refused with MAX_COST_EXCEEDED, HTTP 400, before any call; in `measure` mode it
// runs, and is logged and counted instead. Repeated IDs in a list (`groups(ids:)`) are collapsed
// before the calls (loaders and the request's memo ask once per ID) and counted once; the answer
// keeps one entry per position, as the schema promises. The run-time budget (MAX_REST_CALLS) is
// the request context's (src/rest/budget.ts).
import { type DocumentNode, type ExecutionArgs, getOperationAST, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostMode } from '../../config';
import { log as logger } from '../../log/logger';
import { type CostEstimate, estimateCost } from './cost-estimate';

interface CostLimitOptions {
  maxCost: number;
  mode: CostMode;
  /** Operations over the limit (refused, or run in `measure` mode). */
  onOverLimit?: (estimate: number, mode: CostMode) => void;
  /** Where `measure` mode logs. Default: the process's logger, at `warn`. */
  log?: (line: string) => void;
}

const refusal = (message: string, extensions: Record<string, unknown>) =>
  new GraphQLError(message, { extensions: { ...extensions, http: { status: 400 } } });

/** Each execution's estimate, by its context: the metrics and admission read it. */
const estimates = new WeakMap<object, CostEstimate>();

/** The estimate of the execution with this context, if the cost limit saw it. */
export const estimateOf = (context: unknown): CostEstimate | undefined =>
  typeof context === 'object' && context !== null ? estimates.get(context) : undefined;

/** The estimated REST calls of the execution with this context, if the cost limit saw it. */
export const estimatedCalls = (context: unknown): number | undefined => estimateOf(context)?.calls;

export function useCostLimit(options: CostLimitOptions): Plugin {
  const log = options.log ?? ((line: string) => logger().warn(line));
  // Operations without variables have one estimate: found once per parsed document and name.
  const fixed = new WeakMap<DocumentNode, Map<string, CostEstimate>>();
  const estimateFor = (args: ExecutionArgs): CostEstimate => {
    const operation = getOperationAST(args.document, args.operationName);
    if (operation?.variableDefinitions?.length) return estimateCost(args.schema, args.document, args.operationName, args.variableValues);
    let byName = fixed.get(args.document);
    if (!byName) fixed.set(args.document, (byName = new Map()));
    let found = byName.get(args.operationName ?? '');
    if (!found) byName.set(args.operationName ?? '', (found = estimateCost(args.schema, args.document, args.operationName, undefined)));
    return found;
  };

  /** The refusal of this execution, if any; records its estimate otherwise. */
  const check = (args: ExecutionArgs): GraphQLError | undefined => {
    const estimate = estimateFor(args);
    const { calls } = estimate;
    if (calls > options.maxCost) {
      options.onOverLimit?.(calls, options.mode);
      if (options.mode === 'enforce') {
        return refusal(
          `This operation may make up to ${calls} REST calls, over the limit of ${options.maxCost}: select fewer fields or smaller pages (first/last, fewer IDs)`,
          { code: 'MAX_COST_EXCEEDED', cost: calls, limit: options.maxCost },
        );
      }
      const name = args.operationName ?? getOperationAST(args.document, args.operationName)?.name?.value ?? '(anonymous)';
      log(`cost over the limit (measured only): operation ${name} estimated at ${calls} REST calls, limit ${options.maxCost}`);
    }
    if (typeof args.contextValue === 'object' && args.contextValue !== null) estimates.set(args.contextValue, estimate);
    return undefined;
  };

  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
}
