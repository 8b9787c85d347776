// GraphiQL's default document teaches the API, so it must stay valid as the schema changes.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../../src/gateway/http/graphiql';
import { schema } from '../../../src/schema';

describe('GraphiQL default document', () => {
  it('is valid against the schema', () => {
    expect(validate(schema, parse(DEFAULT_DOCUMENT)).map((e) => e.message)).toEqual([]);
  });

  it('shows the chat-client examples: queries, mutations and subscriptions, with Me first', () => {
    const operations = parse(DEFAULT_DOCUMENT).definitions.flatMap((d) =>
      d.kind === 'OperationDefinition' ? [`${d.operation} ${d.name?.value}`] : [],
    );
    expect(operations[0]).toBe('query Me');
    expect(operations).toEqual(
      expect.arrayContaining([
        'query ChatHome',
        'query GroupScreen',
        'query Conversation',
        'mutation SendText',
        'subscription ConversationEvents',
        'mutation UploadChatFile',
        'mutation DisableUsers',
      ]),
    );
  });
});
