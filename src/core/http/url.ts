// Base URLs and routes: where a request may go. Kept apart from the transport so a route builder
// (../runtime/client.ts, ../serverless/client.ts) needs only this, not the whole of ./request.ts.

/** The origin of a base URL; throws a clear error for a URL that is not http(s). */
export function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`Not a valid URL: ${baseUrl}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`Not an http(s) URL: ${baseUrl}`);
  return url.origin;
}

/**
 * `base` (which may carry a path prefix) joined with an absolute route such as `/v2/x/run`. The backstop of
 * issue 12 for any route builder (../ids.ts checks the ids of ../schemas.ts routes): if the URL parser
 * rewrote the route (a `..` segment, a `?` or `#` inside an id), the key would go to a route nobody asked for,
 * so nothing is sent.
 */
export function joinUrl(base: string, route: string, query?: URLSearchParams): URL {
  const prefix = base.replace(/\/+$/, '');
  const url = new URL(prefix + route);
  const expected = new URL(prefix).pathname.replace(/\/+$/, '') + route;
  if (url.pathname !== expected || url.search !== '' || url.hash !== '') {
    throw new TypeError(`Refused to send a request to ${JSON.stringify(route)}: the URL parser reads it as ${JSON.stringify(url.pathname + url.search + url.hash)}.`);
  }
  if (query && [...query.keys()].length > 0) url.search = query.toString();
  return url;
}

/**
 * Whether a host is this computer: 127.0.0.0/8, localhost, [::1] (URL.hostname keeps the brackets). Plain http
 * is allowed only there (outputs' links in ../outputs/mediaUrl.ts, a profile's service URL, the demo's).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
