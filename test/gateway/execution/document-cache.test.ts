// The gateway's parse and validation cache (in place of yoga's): a text is parsed once, a parse
// error answered again without parsing, a verdict reused for the same parsed document, and a
// plugin that only changes the rules consulted for a document not yet validated.
import { type ASTVisitor, parse } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useDocumentCache } from '../../../src/gateway/execution/document-cache';

function setup() {
  const counts = { parses: 0, ruleRuns: 0, ruleHooks: 0 };
  const documents = useDocumentCache(2);
  const countingParse: Plugin = {
    onParse: ({ setParseFn }) =>
      setParseFn((source, options) => {
        counts.parses++;
        return parse(source, options);
      }),
  };
  const countingRule = (): ASTVisitor => {
    counts.ruleRuns++;
    return {};
  };
  const addsRule: Plugin = {
    onValidate: ({ addValidationRule }) => {
      counts.ruleHooks++;
      addValidationRule(countingRule);
    },
  };
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } } }),
    parserAndValidationCache: false,
    logging: false,
    plugins: [countingParse, documents.rulesOnly(addsRule), documents.plugin],
  });
  const ask = async (query: string) => {
    const res = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as { data?: unknown; errors?: { message: string }[] };
  };
  return { counts, ask };
}

describe('document cache', () => {
  it('parses and validates a text once, and consults a rules-only plugin for its first validation only', async () => {
    const { counts, ask } = setup();
    expect(await ask('{ hello }')).toEqual({ data: { hello: 'hi' } });
    expect(await ask('{ hello }')).toEqual({ data: { hello: 'hi' } });
    expect(counts).toEqual({ parses: 1, ruleRuns: 1, ruleHooks: 1 });
  });

  it('answers a syntax error again without parsing, and an invalid document with the same errors', async () => {
    const { counts, ask } = setup();
    const broken = await ask('{ hello');
    expect(broken.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(await ask('{ hello')).toEqual(broken);
    expect(counts.parses).toBe(1);
    const invalid = await ask('{ nope }');
    expect(invalid.errors?.[0]?.message).toMatch(/Cannot query field "nope"/);
    expect(await ask('{ nope }')).toEqual(invalid);
    expect(counts.parses).toBe(2);
    expect(counts.ruleRuns).toBe(1);
  });

  it('holds at most its size in texts, the oldest stored going first', async () => {
    const { counts, ask } = setup();
    await ask('{ a: hello }');
    await ask('{ b: hello }');
    await ask('{ c: hello }');
    await ask('{ c: hello }');
    await ask('{ b: hello }');
    expect(counts.parses).toBe(3);
    await ask('{ a: hello }');
    expect(counts.parses).toBe(4);
  });
});
