import { startStack } from './test/helpers/stack';
const s = await startStack();
const post = async (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
  const t = performance.now();
  const r = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { accept: 'application/graphql-response+json', ...headers }, body });
  return `${r.status} ${Math.round(performance.now() - t)}ms ${(await r.text()).slice(0, 200)}`;
};
const vars = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, 0]));
console.log('ok', await post(JSON.stringify({ query: '{__typename}', variables: vars(100) })));
console.log('many', await post(JSON.stringify({ query: '{__typename}', variables: vars(180_000) })));
console.log('escaped', await post(JSON.stringify({ query: '{__typename}', variables: { a: 'x\\":'.repeat(20000) } })));
console.log('invalid', await post('{"query": '));
console.log('big', await post(JSON.stringify({ query: '{__typename}', variables: { x: 'a'.repeat(3_000_000) } })));
await s.stop();
