// Writing responses: JSON bodies and application/problem+json errors (SPEC 2.9, 7). Every error of the
// emulator goes through `sendProblem`, so each carries {title, status, detail, errors?} and the right type.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { PROBLEM_JSON, type ProblemDetails } from '../../core/schemas';

export type Headers = Record<string, string | number | readonly string[]>;

/** An error a handler throws to answer with a problem (thrown so validation code stays linear). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: string[],
    readonly headers: Headers = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

function writeBody(res: ServerResponse, status: number, contentType: string, body: string, headers: Headers): void {
  if (res.headersSent || res.destroyed) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.statusCode = status;
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  writeBody(res, status, 'application/json; charset=utf-8', typeof body === 'string' ? body : JSON.stringify(body), headers);
}

export function problemBody(status: number, detail: string, errors?: string[]): ProblemDetails {
  const p: ProblemDetails = { title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (errors && errors.length) p.errors = errors;
  return p;
}

export function sendProblem(res: ServerResponse, status: number, detail: string, errors?: string[], headers: Headers = {}): void {
  writeBody(res, status, PROBLEM_JSON, JSON.stringify(problemBody(status, detail, errors)), headers);
}

export function sendHttpProblem(res: ServerResponse, p: HttpProblem): void {
  sendProblem(res, p.status, p.detail, p.errors, p.headers);
}
