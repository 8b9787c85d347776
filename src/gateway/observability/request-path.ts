// The path of a request's URL, read off the string: whatwg-node hands hooks a URL parsed on first
// use (a `new URL` per request), and the routes that only compare a path (/ready, /metrics) made
// every request pay it, though none of the GraphQL path's own hooks need it. Here, beside the
// metrics that use it, so that the HTTP routes above import it downward.

/** The path of an absolute URL (`http://host:port/graphql?x=1` → `/graphql`); `/` when it has none. */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  // The authority ends at the first '/', '?' or '#' after the scheme: a '/' inside a query is no path.
  let start = scheme < 0 ? 0 : scheme + 3;
  while (start < url.length && url[start] !== '/' && url[start] !== '?' && url[start] !== '#') start++;
  if (url[start] !== '/') return '/';
  let end = start;
  while (end < url.length && url[end] !== '?' && url[end] !== '#') end++;
  return url.slice(start, end);
}
