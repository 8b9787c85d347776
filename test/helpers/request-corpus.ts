// A corpus of raw HTTP requests to the GraphQL endpoint, deterministic from a seed: ordinary
// queries and mutations, every content type and Accept spelling, malformed bodies, limits,
// identities, CORS, odd methods and Host headers, subscriptions over plain HTTP, and random
// byte-level mutations of valid requests. Used by the differential test of the two request paths.
import { type RawRequestParts, requestBytes } from './raw-http';

/** mulberry32: a tiny seeded PRNG (uniform in [0, 1)); the same seed gives the same corpus. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusRequest {
  /** One line saying what the request is. */
  what: string;
  method: string;
  bytes: Buffer;
}

export interface CorpusSetting {
  seed: number;
  /** A user's token; `otherUserId` receives the messages they send. */
  userToken: string;
  userId: number;
  otherUserId: number;
  adminToken: string;
  groupId: number;
  /** The gateway's limits (config). */
  maxBodyBytes: number;
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  /** An origin CORS_ORIGINS lists. */
  allowedOrigin: string;
  /** Byte-mutated copies of valid requests to add. */
  mutations: number;
}

type Headers = [string, string][];

const HOST: [string, string] = ['Host', 'gateway.test'];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
const GQL_ACCEPT: [string, string] = ['Accept', 'application/graphql-response+json'];
const CSRF: [string, string] = ['x-graphql-yoga-csrf', '1'];

/** The nickname every setNickname of the corpus sets: run twice, it leaves the same state. */
export const CORPUS_NICKNAME = 'diff-nick';
/** The transactionId of every sendMessage: the second send of it is de-duplicated by the service. */
export const CORPUS_TRANSACTION_ID = '424242424242';

export function requestCorpus(s: CorpusSetting): CorpusRequest[] {
  const random = mulberry32(s.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const corpus: CorpusRequest[] = [];
  /** Valid requests the byte-level mutations start from. */
  const seeds: { what: string; parts: RawRequestParts }[] = [];

  const auth: [string, string] = ['access-token', s.userToken];
  const add = (what: string, parts: RawRequestParts, fuzzSeed = false) => {
    corpus.push({ what, method: parts.method, bytes: requestBytes(parts) });
    if (fuzzSeed) seeds.push({ what, parts });
  };
  const post = (what: string, body: string | Buffer, headers: Headers = [JSON_TYPE, GQL_ACCEPT, auth], fuzzSeed = false) =>
    add(what, { method: 'POST', target: '/graphql', headers: [HOST, ...headers], body }, fuzzSeed);
  const json = (value: unknown) => JSON.stringify(value);
  const get = (what: string, params: Record<string, string>, headers: Headers = [GQL_ACCEPT, auth, CSRF], fuzzSeed = false) =>
    add(what, { method: 'GET', target: `/graphql?${new URLSearchParams(params).toString()}`, headers: [HOST, ...headers] }, fuzzSeed);

  const me = '{ me { id username nickName } }';
  const typename = '{ __typename }';
  const setNickname = `mutation { setNickname(input: { nickName: "${CORPUS_NICKNAME}" }) { ok user { nickName } userErrors { message } } }`;
  const sendMessage = `mutation { sendMessage(input: { targetType: USER, targets: ["${s.otherUserId}"], type: TEXT, content: "hello", transactionId: "${CORPUS_TRANSACTION_ID}" }) { ok messageIds transactionId userErrors { message } } }`;
  const subscription = 'subscription { unreadCounts { conversationId unreadCount } }';
  const userById = 'query U($id: ID!) { user(id: $id) { id nickName } }';
  const groupsByIds = 'query G($ids: [ID!]!) { groups(ids: $ids) { id name } }';

  // Valid queries and mutations.
  post('a query', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, auth], true);
  post('__typename, no identity', json({ query: typename }), [JSON_TYPE, GQL_ACCEPT], true);
  post('a query with variables', json({ query: userById, variables: { id: String(s.userId) } }), undefined, true);
  post('a query with operationName among several', json({ query: `query A ${me} query B ${typename}`, operationName: 'B' }));
  post('several operations, no operationName', json({ query: `query A ${me} query B ${typename}` }));
  post('operationName naming no operation', json({ query: `query A ${me}`, operationName: 'Z' }));
  post('operationName null', json({ query: me, operationName: null, variables: null }));
  post(
    'a query and a mutation, operationName the query',
    json({ query: `query Q ${typename} mutation M ${setNickname.slice(9)}`, operationName: 'Q' }),
  );
  post('groups by IDs', json({ query: groupsByIds, variables: { ids: [String(s.groupId), '1'] } }), undefined, true);
  post(
    'fragments and @include',
    json({ query: 'query($x: Boolean!) { me { ...F @include(if: $x) } } fragment F on User { id }', variables: { x: true } }),
  );
  post('introspection', json({ query: '{ __schema { queryType { name } } }' }));
  post('a few aliases', json({ query: '{ a: __typename b: __typename me { i: id } }' }));
  post('extensions: an unknown member', json({ query: typename, extensions: { trace: true } }));
  post('extensions: persistedQuery', json({ query: typename, extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }));
  post('extensions: not an object', json({ query: typename, extensions: 'x' }));
  post('an unknown top-level member', json({ query: typename, bogus: 1 }));
  post('setNickname', json({ query: setNickname }), [JSON_TYPE, GQL_ACCEPT, auth], true);
  post(
    'setNickname with variables',
    json({ query: 'mutation($n: String!) { setNickname(input: { nickName: $n }) { ok } }', variables: { n: CORPUS_NICKNAME } }),
  );
  post('sendMessage with a fixed transactionId', json({ query: sendMessage }));
  post('a query after the mutations', json({ query: me }));

  // GET.
  get('GET a query', { query: me }, undefined, true);
  get('GET without the CSRF header', { query: me }, [GQL_ACCEPT, auth]);
  get('GET with variables', { query: userById, variables: json({ id: String(s.userId) }) });
  get('GET with invalid variables', { query: typename, variables: 'notjson' });
  get('GET with variables an array', { query: typename, variables: '[1]' });
  get('GET with operationName', { query: `query A ${me} query B ${typename}`, operationName: 'A' });
  get('GET with extensions', { query: typename, extensions: '{"a":1}' });
  get('GET a mutation', { query: setNickname });
  get('GET without a query', { x: '1' });
  add('GET with no query string', { method: 'GET', target: '/graphql', headers: [HOST, GQL_ACCEPT, CSRF] });
  get('GET a subscription, text/event-stream', { query: subscription }, [['Accept', 'text/event-stream'], auth]);
  get('GET a subscription, no Accept', { query: subscription }, [auth, CSRF]);
  get('GET a subscription, */*', { query: subscription }, [['Accept', '*/*'], auth, CSRF]);
  get('GET a subscription, application/json', { query: subscription }, [['Accept', 'application/json'], auth, CSRF]);
  get('GET a query, text/event-stream', { query: me }, [['Accept', 'text/event-stream'], auth]);

  // Accept spellings, on a query (and the writes the issue found executed before a 500).
  const accepts = [
    'application/json',
    'application/graphql-response+json, application/json',
    'application/json;q=0.9, application/graphql-response+json',
    '*/*',
    'application/*',
    'text/*',
    '*/mixed',
    'text/event-stream',
    'text/ event-stream',
    'multipart/mixed',
    'multipart /mixed',
    'multipart/mixed; deferSpec=20220824',
    'text/html',
    'application/xml',
    'APPLICATION/JSON',
    'application/graphql-response+json; charset=utf-8',
    'application/json;q=0, text/plain',
    '',
    ',,,',
    'application/graphql-response+json;q=0.1, text/event-stream;q=0.9',
  ];
  for (const accept of accepts) post(`a query, Accept ${json(accept)}`, json({ query: me }), [JSON_TYPE, ['Accept', accept], auth]);
  post('no Accept header', json({ query: me }), [JSON_TYPE, auth]);
  for (const accept of ['text/*', '*/mixed', 'text/event-stream', 'multipart/mixed']) {
    post(`setNickname, Accept ${accept}`, json({ query: setNickname }), [JSON_TYPE, ['Accept', accept], auth]);
    post(`sendMessage, Accept ${accept}`, json({ query: sendMessage }), [JSON_TYPE, ['Accept', accept], auth]);
  }

  // Subscriptions as plain JSON POSTs.
  for (const accept of [
    undefined,
    '*/*',
    'application/json',
    'application/graphql-response+json',
    'text/event-stream',
    'multipart/mixed',
  ]) {
    const headers: Headers = accept === undefined ? [JSON_TYPE, auth] : [JSON_TYPE, ['Accept', accept], auth];
    post(`a subscription POST, Accept ${accept ?? 'none'}`, json({ query: subscription }), headers);
  }
  post('a subscription POST, no identity', json({ query: subscription }), [JSON_TYPE]);

  // Content types.
  const body = json({ query: me });
  for (const type of [
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset=iso-8859-1',
    'application/JSON',
    'application/graphql-response+json',
    'application/graphql+json',
    'application/json-patch+json',
    'application/jsonx',
  ]) {
    post(`Content-Type ${type}`, body, [['Content-Type', type], GQL_ACCEPT, auth]);
  }
  post('Content-Type text/plain', body, [['Content-Type', 'text/plain'], GQL_ACCEPT, auth]);
  post('Content-Type text/plain, CSRF header', body, [['Content-Type', 'text/plain'], GQL_ACCEPT, auth, CSRF]);
  post('Content-Type application/graphql', me, [['Content-Type', 'application/graphql'], GQL_ACCEPT, auth, CSRF]);
  post('form-encoded', `query=${encodeURIComponent(me)}`, [['Content-Type', 'application/x-www-form-urlencoded'], GQL_ACCEPT, auth]);
  post('form-encoded, CSRF header', `query=${encodeURIComponent(me)}`, [
    ['Content-Type', 'application/x-www-form-urlencoded'],
    GQL_ACCEPT,
    auth,
    CSRF,
  ]);
  const boundary = 'diffboundary';
  const multipart = [
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${body}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{}\r\n--${boundary}--\r\n`,
  ].join('');
  const multipartType: [string, string] = ['Content-Type', `multipart/form-data; boundary=${boundary}`];
  post('multipart, no CSRF header', multipart, [multipartType, GQL_ACCEPT, auth]);
  post('multipart, CSRF header', multipart, [multipartType, GQL_ACCEPT, auth, CSRF]);
  post('multipart, truncated', multipart.slice(0, 90), [multipartType, GQL_ACCEPT, auth, CSRF]);
  post('no Content-Type', body, [GQL_ACCEPT, auth]);
  post('no Content-Type, CSRF header', body, [GQL_ACCEPT, auth, CSRF]);

  // Malformed JSON, arrays, duplicate keys, deep JSON.
  const valid = json({ query: userById, variables: { id: String(s.userId) }, operationName: 'U' });
  for (let i = 0; i < 6; i++) {
    const cut = 1 + Math.floor(random() * (valid.length - 2));
    post(`JSON truncated at ${cut}`, valid.slice(0, cut));
  }
  for (const [what, text] of [
    ['an empty body', ''],
    ['whitespace', '   \n'],
    ['"{"', '{'],
    ['null', 'null'],
    ['a string', '"hello"'],
    ['a number', '1'],
    ['true', 'true'],
    ['an empty array', '[]'],
    ['an empty object', '{}'],
    ['trailing garbage', `${json({ query: typename })} x`],
    ['a BOM first', `\ufeff${json({ query: typename })}`],
    ['a single-quoted key', "{'query':'{ __typename }'}"],
    ['a query that is a number', '{"query":1}'],
    ['variables a string', json({ query: typename, variables: 'x' })],
    ['variables an array', json({ query: typename, variables: [1] })],
    ['operationName a number', json({ query: typename, operationName: 1 })],
    ['a batch of one', json([{ query: typename }])],
    ['a batch of two', json([{ query: typename }, { query: me }])],
    ['duplicate keys, query twice', `{"query":"{ nope }","query":"${typename}"}`],
    ['duplicate keys, variables twice', `{"query":"${userById}","variables":{"id":"x"},"variables":{"id":"${s.userId}"}}`],
    ['a __proto__ key', `{"query":"${typename}","__proto__":{"query":"{ nope }"}}`],
    ['deep JSON in variables (2,000 levels)', `{"query":"${typename}","variables":{"x":${'['.repeat(2_000)}${']'.repeat(2_000)}}}`],
    ['deep JSON in extensions (5,000 levels)', `{"query":"${typename}","extensions":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`],
  ] as const) {
    post(`JSON: ${what}`, text);
  }

  // Sizes: the member count limit, the fast path's own size boundary, MAX_BODY_BYTES.
  post('61 KB: 10,200 variables members', `{"query":"${typename}","variables":{${'"a":1,'.repeat(10_200)}"b":1}}`);
  // Members: query, variables, and those of variables (k + 1).
  post('10,000 object members (at the limit)', `{"query":"${typename}","variables":{${'"a":1,'.repeat(9_997)}"b":1}}`);
  post('10,001 object members (over)', `{"query":"${typename}","variables":{${'"a":1,'.repeat(9_998)}"b":1}}`);
  // Array items: a list variable of 10,000 items passes the scan, one of 100,000 does not.
  const idList = (n: number) => `{"query":"query($ids: [ID!]) { __typename }","variables":{"ids":[${Array(n).fill('"1"').join(',')}]}}`;
  post('10,000 array items (within)', idList(10_000));
  post('100,000 array items (over)', idList(100_000));
  const padded = (bytes: number) => {
    const frame = json({ query: typename, variables: { pad: '' } });
    return json({ query: typename, variables: { pad: 'x'.repeat(bytes - frame.length) } });
  };
  for (const bytes of [65_535, 65_536, 65_537, s.maxBodyBytes - 1, s.maxBodyBytes, s.maxBodyBytes + 1]) {
    post(`a body of ${bytes} bytes`, padded(bytes));
  }
  add('a chunked body', {
    method: 'POST',
    target: '/graphql',
    headers: [HOST, JSON_TYPE, GQL_ACCEPT, auth, ['Transfer-Encoding', 'chunked']],
    body: chunked(json({ query: me })),
  });
  add('a chunked body over MAX_BODY_BYTES', {
    method: 'POST',
    target: '/graphql',
    headers: [HOST, JSON_TYPE, GQL_ACCEPT, ['Transfer-Encoding', 'chunked']],
    body: chunked(padded(s.maxBodyBytes + 10)),
  });
  post('Content-Length not a number', json({ query: typename }), [JSON_TYPE, GQL_ACCEPT, ['Content-Length', 'abc']]);

  // Invalid UTF-8.
  const utf8Cases: [string, Buffer][] = [
    ['a 0xFF byte in the query', Buffer.concat([Buffer.from('{"query":"{ __typename } #'), Buffer.from([0xff]), Buffer.from('"}')])],
    [
      'an overlong "/" in a variable',
      Buffer.concat([Buffer.from(`{"query":"${userById}","variables":{"id":"1`), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')]),
    ],
    ['a lone continuation byte in a key', Buffer.concat([Buffer.from('{"que'), Buffer.from([0x80]), Buffer.from(`ry":"${typename}"}`)])],
  ];
  for (const [what, bytes] of utf8Cases) post(`invalid UTF-8: ${what}`, bytes);

  // GraphQL syntax and validation errors, and every document limit.
  for (const [what, query] of [
    ['a syntax error', '{ me { '],
    ['an unknown field', '{ nope }'],
    ['an unknown argument', '{ me(x: 1) { id } }'],
    ['an undefined variable', '{ user(id: $id) { id } }'],
    ['an unused variable', 'query($x: Int) { __typename }'],
    ['a fragment cycle', '{ me { ...A } } fragment A on User { ...B } fragment B on User { ...A }'],
    ['a subscription with two root fields', 'subscription { unreadCounts { unreadCount } conversationMessages(with: "1") { id } }'],
    ['an empty document', ''],
    ['a comment only', '# nothing'],
  ] as const) {
    post(`GraphQL: ${what}`, json({ query }));
  }
  const nested = (levels: number) => `{ ${'me { '.repeat(levels)}id${' }'.repeat(levels)} }`;
  const aliases = (n: number, field = 'me { id }') => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
  for (const accept of ['application/graphql-response+json', 'application/json', '*/*']) {
    const headers: Headers = [JSON_TYPE, ['Accept', accept], auth];
    post(`depth ${s.maxDepth} (at the limit), Accept ${accept}`, json({ query: nested(s.maxDepth - 1) }), headers);
    post(`depth ${s.maxDepth + 1} (over), Accept ${accept}`, json({ query: nested(s.maxDepth) }), headers);
    post(`${s.maxAliases} aliases (at the limit), Accept ${accept}`, json({ query: aliases(s.maxAliases) }), headers);
    post(`${s.maxAliases + 1} aliases (over), Accept ${accept}`, json({ query: aliases(s.maxAliases + 1) }), headers);
    post(`60 aliases of __typename, Accept ${accept}`, json({ query: aliases(60, '__typename') }), headers);
    post(`over ${s.maxTokens} tokens, Accept ${accept}`, json({ query: nested(s.maxTokens) }), headers);
    post(`a syntax error, Accept ${accept}`, json({ query: '{ me { ' }), headers);
  }
  post('tokens: a flat document over the limit', json({ query: `{ ${'__typename '.repeat(s.maxTokens + 10)}}` }));
  post('1,000 repetitions of one field', json({ query: `{ me { ${'id '.repeat(1_000)}} }` }));

  // Variable types, and int64 edges of ID.
  for (const [what, id] of [
    ['an object', { a: 1 }],
    ['a boolean', true],
    ['a float', 1.5],
    ['null', null],
    ['a list', ['1']],
    ['not digits', 'abc'],
    ['int64 max', '9223372036854775807'],
    ['int64 max + 1', '9223372036854775808'],
    ['uint64 max + 1', '18446744073709551616'],
    ['-1', '-1'],
    ['0', '0'],
    ['leading zeros', '000123'],
    ['a space first', ' 12'],
    ['exponent', '1e3'],
    ['hex', '0x10'],
  ] as const) {
    post(`ID variable ${what}`, json({ query: userById, variables: { id } }));
  }
  post('ID variable 2^53 + 1 as a JSON number', `{"query":"${userById}","variables":{"id":9007199254740993}}`);
  post('ID variable int64 max as a JSON number', `{"query":"${userById}","variables":{"id":9223372036854775807}}`);
  post('ID variable missing', json({ query: userById }));
  post('Int variable given a string', json({ query: 'query($n: Int) { __typename @skip(if: false) me { id } }', variables: { n: 'x' } }));
  post('a list of 1,000 invalid IDs', json({ query: groupsByIds, variables: { ids: Array.from({ length: 1_000 }, () => 'xyz') } }));

  // Identity.
  post('no token', json({ query: me }), [JSON_TYPE, GQL_ACCEPT]);
  post('an invalid token', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['access-token', 'not-a-token']]);
  post('an empty token', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['access-token', '']]);
  post('Authorization: Bearer', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['Authorization', `Bearer ${s.userToken}`]]);
  post('Authorization: Bearer, invalid', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['Authorization', 'Bearer nope']]);
  post('Authorization: Basic', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['Authorization', 'Basic dXNlcjpwYXNz']]);
  post('admin token acting as a user', json({ query: me }), [
    JSON_TYPE,
    GQL_ACCEPT,
    ['access-token', s.adminToken],
    ['user_id', String(s.userId)],
  ]);
  post('admin token, user_id not a number', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, ['access-token', s.adminToken], ['user_id', 'x']]);
  post('an unknown app_id', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, auth, ['app_id', 'nope']]);

  // CORS.
  const preflight = (what: string, origin: string, extra: Headers = []) =>
    add(what, {
      method: 'OPTIONS',
      target: '/graphql',
      headers: [HOST, ['Origin', origin], ['Access-Control-Request-Method', 'POST'], ...extra],
    });
  preflight('preflight, a listed origin', s.allowedOrigin, [['Access-Control-Request-Headers', 'content-type, access-token']]);
  preflight('preflight, an unlisted origin', 'https://evil.example');
  add('preflight without Access-Control-Request-Method', {
    method: 'OPTIONS',
    target: '/graphql',
    headers: [HOST, ['Origin', s.allowedOrigin]],
  });
  add('OPTIONS without Origin', { method: 'OPTIONS', target: '/graphql', headers: [HOST] });
  post('a listed Origin', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, auth, ['Origin', s.allowedOrigin]]);
  post('an unlisted Origin', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, auth, ['Origin', 'https://evil.example']]);
  post('Origin: null', json({ query: me }), [JSON_TYPE, GQL_ACCEPT, auth, ['Origin', 'null']]);
  get('GET with a listed Origin', { query: me }, [GQL_ACCEPT, auth, ['Origin', s.allowedOrigin]]);

  // Methods and paths.
  for (const method of ['HEAD', 'PUT', 'DELETE', 'PATCH']) {
    add(`${method} /graphql`, { method, target: '/graphql', headers: [HOST, JSON_TYPE, GQL_ACCEPT, auth], body: json({ query: me }) });
  }
  add('HEAD /graphql?query', {
    method: 'HEAD',
    target: `/graphql?query=${encodeURIComponent(typename)}`,
    headers: [HOST, GQL_ACCEPT, CSRF],
  });
  add('POST /graphql/', { method: 'POST', target: '/graphql/', headers: [HOST, JSON_TYPE, GQL_ACCEPT], body: json({ query: typename }) });
  add('POST /graphql?x=1', {
    method: 'POST',
    target: '/graphql?x=1',
    headers: [HOST, JSON_TYPE, GQL_ACCEPT],
    body: json({ query: typename }),
  });
  add('POST an absolute-form target', {
    method: 'POST',
    target: 'http://evil.example/metrics',
    headers: [HOST, JSON_TYPE, GQL_ACCEPT],
    body: json({ query: typename }),
  });

  // Long headers.
  post('an 8 KB header', json({ query: typename }), [JSON_TYPE, GQL_ACCEPT, ['x-long', 'y'.repeat(8 * 1024)]]);
  post('a 20 KB header', json({ query: typename }), [JSON_TYPE, GQL_ACCEPT, ['x-long', 'y'.repeat(20 * 1024)]]);
  post('200 headers', json({ query: typename }), [
    JSON_TYPE,
    GQL_ACCEPT,
    ...Array.from({ length: 200 }, (_, i): [string, string] => [`x-h${i}`, 'v']),
  ]);
  post('a 4 KB Accept', json({ query: typename }), [JSON_TYPE, ['Accept', `${'a/b, '.repeat(800)}application/json`]]);

  // Host headers: the route must not depend on them.
  for (const host of ['evil.example/metrics?', 'x/ready?', 'bad host', '[::1', 'localhost:99999', '']) {
    add(`Host ${json(host)}`, {
      method: 'POST',
      target: '/graphql',
      headers: [['Host', host], JSON_TYPE, GQL_ACCEPT],
      body: json({ query: typename }),
    });
    add(`Host ${json(host)}, with an Origin`, {
      method: 'POST',
      target: '/graphql',
      headers: [['Host', host], JSON_TYPE, GQL_ACCEPT, ['Origin', s.allowedOrigin]],
      body: json({ query: typename }),
    });
  }
  add('no Host header', { method: 'POST', target: '/graphql', headers: [JSON_TYPE, GQL_ACCEPT], body: json({ query: typename }) });

  // Byte-level mutations of valid requests: flip, insert or delete bytes in the request line and
  // headers or in the body. The Content-Length is set after mutating, so that a body mutation
  // never leaves the server waiting for bytes that will not come.
  for (let i = 0; i < s.mutations; i++) {
    const base = pick(seeds);
    const inBody = base.parts.body !== undefined && random() < 0.6;
    const edits = 1 + Math.floor(random() * 3);
    if (inBody) {
      const bytes = mutate(Buffer.from(base.parts.body!), edits, random);
      add(`${base.what}, body mutated (${edits})`, { ...base.parts, body: bytes });
    } else {
      const head = requestBytes({ ...base.parts, body: undefined });
      // The mutation keeps the final blank line: a head that never ends would only time out.
      const mutated = mutate(head.subarray(0, head.length - 4), edits, random);
      const body = base.parts.body === undefined ? Buffer.alloc(0) : Buffer.from(base.parts.body);
      const length = base.parts.body === undefined ? '' : `\r\nContent-Length: ${body.length}`;
      corpus.push({
        what: `${base.what}, head mutated (${edits})`,
        method: base.parts.method,
        bytes: Buffer.concat([mutated, Buffer.from(`${length}\r\n\r\n`), body]),
      });
    }
  }
  return corpus;
}

/** A body in chunked transfer coding: chunks of up to 16 KiB, then the last chunk. */
function chunked(text: string): Buffer {
  const body = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 16 * 1024) {
    const chunk = body.subarray(at, at + 16 * 1024);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** `edits` random flips (one bit), insertions (a random byte) or deletions. */
function mutate(bytes: Buffer, edits: number, random: () => number): Buffer {
  let out = Buffer.from(bytes);
  for (let e = 0; e < edits && out.length > 0; e++) {
    const at = Math.floor(random() * out.length);
    const kind = random();
    if (kind < 0.4) out[at] = out[at]! ^ (1 << Math.floor(random() * 8));
    else if (kind < 0.7) out = Buffer.concat([out.subarray(0, at), Buffer.from([Math.floor(random() * 256)]), out.subarray(at)]);
    else out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
  }
  return out;
}
