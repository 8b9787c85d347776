// The floors bench/peers.ts holds the `me` case against: what a Node process answers at all, with
// no gateway work in it. FLOOR=node is node:http alone, reading the body and answering the `me`
// answer as constant JSON; FLOOR=yoga is graphql-yoga 5 with its defaults and one resolver
// answering the same constant (no REST call: the gateway's `me` makes 0.03 per request under
// identical load, its shared executions answering the rest). Whatever the gateway's cost per
// request, it cannot go below these: they say what a target against a native peer can ask of it.
import { createServer, type RequestListener } from 'node:http';
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

function yogaFloor(): RequestListener {
  const schema = createSchema({
    typeDefs: 'type User { id: ID! username: String! nickName: String } type Query { me: User }',
    resolvers: { Query: { me: () => me } },
  });
  const yoga = createYoga({ schema, logging: false, graphiql: false, landingPage: false });
  return yoga;
}

const floor = process.env.FLOOR;
if (floor !== 'node' && floor !== 'yoga') throw new Error(`FLOOR must be node or yoga, not ${floor}`);
const server = createServer(floor === 'node' ? nodeFloor() : yogaFloor());
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`floor ${floor} listening`));
