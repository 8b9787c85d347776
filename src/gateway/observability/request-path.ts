// The path of a request's URL, read off the string: whatwg-node hands hooks a URL parsed on first
// use (a `new URL` per request), and the routes that only compare a path (/ready, /metrics) made
// every request pay it, though none of the GraphQL path's own hooks need it. Here, beside the
// metrics that use it, so that the HTTP routes above import it downward.

/** The path of an absolute URL (`http://host:port/graphql?x=1` → `/graphql`); `/` when it has none. */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return '/';
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start);
    if (at >= 0 && at < end) end = at;
  }
  return url.slice(start, end);
}
