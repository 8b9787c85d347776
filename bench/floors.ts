// The floors bench/peers.ts holds the `me` case against: what a Node process answers at all, with
// no gateway work in it. FLOOR=node is node:http alone, reading the body and answering the `me`
// answer as constant JSON; FLOOR=yoga is graphql-yoga 5 with its defaults and one resolver
// answering the same constant (no REST call: the gateway's `me` makes 0.03 per request under
// identical load, its shared executions answering the rest); FLOOR=jit is GraphQL without a
// framework: node:http, the body parsed, the query compiled once by graphql-jit and run against the
// constant, the result stringified (no validation per request, no context, no plugin: what a front
// of our own in place of yoga could approach at best). No gateway answers below the first; these
// say what a target against a native peer can ask of a Node gateway, and of one built on yoga.
import { createServer, type RequestListener } from 'node:http';
import { parse } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { createSchema, createYoga } from 'graphql-yoga';

const me = { id: '1', username: 'bench-owner', nickName: 'bench owner' };

function nodeFloor(): RequestListener {
  const body = JSON.stringify({ data: { me } });
  const length = String(Buffer.byteLength(body));
  return (req, res) => {
    req.resume();
    req.once('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
      res.end(body);
    });
  };
}

const typeDefs = 'type User { id: ID! username: String! nickName: String } type Query { me: User }';
const schema = createSchema({ typeDefs, resolvers: { Query: { me: () => me } } });

function jitFloor(): RequestListener {
  const compiled = new Map<string, CompiledQuery>();
  const compiledFor = (query: string) => {
    let found = compiled.get(query);
    if (!found) {
      const made = compileQuery(schema, parse(query));
      if (!isCompiledQuery(made)) throw new Error(`not compiled: ${JSON.stringify(made.errors)}`);
      compiled.set(query, (found = made));
    }
    return found;
  };
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const { query } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string };
      void Promise.resolve(compiledFor(query).query({}, {}, {})).then((result) => {
        const body = JSON.stringify(result);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      });
    });
  };
}

function yogaFloor(): RequestListener {
  // Made apart from the return: typed by the return, yoga would take node's req/res as its context.
  const yoga = createYoga({ schema, logging: false, graphiql: false, landingPage: false });
  return yoga;
}

const floors = { node: nodeFloor, jit: jitFloor, yoga: yogaFloor };
const floor = process.env.FLOOR;
if (floor !== 'node' && floor !== 'jit' && floor !== 'yoga') throw new Error(`FLOOR must be one of node, jit, yoga, not ${floor}`);
const server = createServer(floors[floor]());
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`floor ${floor} listening`));
