// The query string of a service route, read once by name: each unknown parameter and each one given twice
// gets its own line in `errors`, named first (issue 3: "`errors` names each bad parameter"), the same words
// on the billing route and the job routes.

export interface QueryParams<P extends string> {
  /** The first value of each allowed parameter present. */
  values: Partial<Record<P, string>>;
  errors: string[];
}

export function readQueryParams<P extends string>(search: URLSearchParams, allowed: readonly P[]): QueryParams<P> {
  const values: Partial<Record<P, string>> = {};
  const errors: string[] = [];
  const repeated = new Set<string>();
  for (const [name, value] of search) {
    if (!(allowed as readonly string[]).includes(name)) {
      errors.push(`${name}: unknown query parameter${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`);
    } else if (values[name as P] !== undefined) {
      if (!repeated.has(name)) errors.push(`${name}: given more than once`);
      repeated.add(name);
    } else {
      values[name as P] = value;
    }
  }
  return { values, errors };
}
