// Failures travel as plain values (UpstreamError, GatewayError) up to the GraphQL edge, which
// words them once (src/schema/core/upstream-errors.ts): on the failing field, with the code of the
// fixed set, and without yoga logging them as crashes.
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GatewayError, UpstreamError } from '../../../src/rest/errors';
import { graphqlErrorOf, upstreamCodeOf, withRetryKey } from '../../../src/schema/core/upstream-errors';
import { expectNoErrorLogs } from '../../helpers/no-error-logs';
import { useStack } from '../../helpers/stack';

const notFound = () =>
  new UpstreamError({
    endpoint: 'GET /group/info',
    kind: 'envelope',
    httpStatus: 200,
    code: 20001,
    upstreamMessage: 'group does not exist',
  });

/** The error graphql-js makes of what a resolver threw. */
const located = (thrown: Error) => new GraphQLError(thrown.message, { path: ['group', 'name'], originalError: thrown });

describe('graphqlErrorOf', () => {
  it('words an upstream failure a resolver threw with its code, upstream code and message, endpoint and path', () => {
    const error = graphqlErrorOf(located(notFound()));
    expect(error?.toJSON()).toEqual({
      message: 'GET /group/info failed: upstream code 20001: group does not exist',
      path: ['group', 'name'],
      extensions: {
        code: 'NOT_FOUND',
        endpoint: 'GET /group/info',
        upstreamCode: 20001,
        upstreamMessage: 'group does not exist',
        httpStatus: 200,
      },
    });
    expect(error?.originalError).toBeUndefined();
  });

  it("words the gateway's own failures with their code and field", () => {
    const error = graphqlErrorOf(located(new GatewayError('file 1 was not sent', 'BAD_USER_INPUT', 'file')));
    expect(error?.toJSON()).toMatchObject({ message: 'file 1 was not sent', extensions: { code: 'BAD_USER_INPUT', field: 'file' } });
  });

  it('adds the retry key of a failed write to its extensions', async () => {
    const failed = await withRetryKey({ transactionId: '42' }, Promise.reject(notFound())).catch((err: unknown) => err);
    expect(upstreamCodeOf(failed)).toBe(20001);
    expect(graphqlErrorOf(located(failed as Error))?.extensions).toMatchObject({ code: 'NOT_FOUND', transactionId: '42' });
  });

  it('leaves anything else to the masking', () => {
    expect(graphqlErrorOf(located(new Error('a bug')))).toBeUndefined();
    expect(graphqlErrorOf(new GraphQLError('a refused document'))).toBeUndefined();
  });
});

describe('upstream failures at the gateway', () => {
  const stack = useStack();
  // Yoga logs every error its masking replaces: an upstream failure is an answer, not a crash.
  expectNoErrorLogs();

  it('answers a rejected token on the failing field, its sibling keeping its data, without logging it', async () => {
    // Twice: the second run of a document is the compiled one whatever the threshold.
    for (let run = 0; run < 2; run++) {
      const reply = await stack.gql('{ __typename me { nickName } }', {}, { 'access-token': 'not-a-token' });
      expect(reply.data).toEqual({ __typename: 'Query', me: { nickName: null } });
      expect(reply.errors).toHaveLength(1);
      expect(reply.errors?.[0]).toMatchObject({
        path: ['me', 'nickName'],
        locations: [{ line: 1, column: 19 }],
        extensions: { code: 'UNAUTHENTICATED', endpoint: 'GET /user/profile' },
      });
    }
  });
});
