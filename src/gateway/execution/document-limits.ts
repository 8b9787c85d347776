// Limits on the GraphQL document itself, each refused with HTTP 400 and a code of its own
// (over graphql-ws: an `error` message for that operation only):
// - MAX_TOKENS_EXCEEDED: more lexical tokens than maxTokens. graphql-js stops lexing there, so a
//   document of thousands of nested selections is refused before the parser's recursion could
//   overflow the stack (that was an HTTP 500 with a stack trace logged per request);
// - MAX_DEPTH_EXCEEDED / MAX_ALIASES_EXCEEDED: graphql-armor's rules, whose own errors read
//   "Syntax Error: ..." and carry no code;
// - GRAPHQL_VALIDATION_FAILED with a reason, where graphql-js gives up on a document that costs too
//   much to validate (e.g. 1,000 repetitions of one field) and says only "Validation aborted.".
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { type MaxDepthOptions, maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { type DocumentNode, GraphQLError, validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';

interface DocumentLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
}

type RejectCallback = NonNullable<MaxDepthOptions['onReject']>[number];

const refusal = (message: string, code: string, limit: number) =>
  new GraphQLError(message, { extensions: { code, limit, http: { status: 400 } } });

/** Reports an armor rejection under our code, in place of armor's thrown "Syntax Error". */
const reportAs =
  (code: string, limit: number): RejectCallback =>
  (context, error) =>
    context?.reportError(refusal(error.message.replace(/^Syntax Error: /, ''), code, limit));

// graphql-js 16 words it "more that"; later versions may fix the spelling.
const TOKENS_EXCEEDED = /Document contains more tha[nt] \d+ tokens/;
const ABORTED = 'Validation aborted.';

export function useDocumentLimits(limits: DocumentLimits): Plugin {
  const tooManyTokens = () =>
    refusal(
      `The document has more than ${limits.maxTokens} tokens (names, punctuation, values): send a smaller one`,
      'MAX_TOKENS_EXCEEDED',
      limits.maxTokens,
    );
  const rules = [
    maxDepthRule({
      n: limits.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      propagateOnRejection: false,
      onReject: [reportAs('MAX_DEPTH_EXCEEDED', limits.maxDepth)],
    }),
    // armor lets aliases of __typename through by default: 60 of them would pass a limit of 50.
    maxAliasesRule({
      n: limits.maxAliases,
      allowList: [],
      propagateOnRejection: false,
      onReject: [reportAs('MAX_ALIASES_EXCEEDED', limits.maxAliases)],
    }),
  ];
  const verdicts = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, { ...options, maxTokens: limits.maxTokens });
        } catch (err) {
          if (err instanceof GraphQLError && TOKENS_EXCEEDED.test(err.message)) throw tooManyTokens();
          // The token limit keeps nesting far below the stack's depth; should a deeper stack be
          // needed anyway, the document is still the client's to shorten, not a server fault.
          if (err instanceof RangeError) throw refusal('The document is nested too deeply to parse', 'MAX_DEPTH_EXCEEDED', limits.maxDepth);
          throw err;
        }
      });
    },
    onValidate({ params, setResult }) {
      // The limits first, alone: a document over one is refused without the cost of the spec's
      // rules (comparing 300 aliased fields pairwise, say).
      // Once per parsed document: yoga's parse cache hands out the same one for the same text.
      let refused = verdicts.get(params.documentAST);
      if (!refused) verdicts.set(params.documentAST, (refused = validate(params.schema, params.documentAST, rules)));
      if (refused.length > 0) setResult(refused);
      return ({ result, setResult }) => {
        if (!result.some((e) => e instanceof GraphQLError && e.message === ABORTED)) return;
        setResult(
          result.map((e) =>
            e instanceof GraphQLError && e.message === ABORTED
              ? new GraphQLError(
                  'Validation aborted: the document costs too much to validate (many selections of the same field or fragment to compare); send fewer repeated selections',
                  { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } },
                )
              : e,
          ),
        );
      };
    },
  };
}
