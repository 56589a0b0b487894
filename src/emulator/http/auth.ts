// Authentication and authorization (SPEC 5, issue 3 "Auth"): the bearer token names a key of one user; a
// missing header, another scheme, or an empty, unknown or expired token is 401 with WWW-Authenticate
// (RFC 6750 section 3); a valid key without the scope, or a job route for an endpoint the key may not use or
// the user does not own, is 403.
import type { EndpointConfig, KeyConfig, Scope } from '../config';
import type { UserUsage } from '../billing/billingStore';
import { HttpProblem } from './respond';

/** A user as the running emulator sees it. */
export interface Account {
  id: string;
  endpoints: Map<string, EndpointConfig>;
  usage: UserUsage;
}

export interface Principal {
  account: Account;
  key: KeyConfig;
}

interface KeyEntry {
  key: KeyConfig;
  account: Account;
  expiresAtMs: number;
}

// RFC 6750 section 2.1: `Bearer` (case-insensitive scheme, RFC 7235) then one b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function unauthorized(detail: string, invalidToken: boolean): HttpProblem {
  // RFC 6750 3.1: a request without credentials gets a bare challenge; a bad token gets error="invalid_token".
  const challenge = invalidToken ? 'Bearer error="invalid_token"' : 'Bearer';
  return new HttpProblem(401, detail, undefined, { 'WWW-Authenticate': challenge });
}

export class KeyRing {
  private readonly keys = new Map<string, KeyEntry>();

  add(key: KeyConfig, account: Account): void {
    this.keys.set(key.key, { key, account, expiresAtMs: key.expiresAt ? Date.parse(key.expiresAt) : Number.POSITIVE_INFINITY });
  }

  /** The principal of a request, or a 401 problem (thrown). */
  authenticate(authorization: string | undefined, nowMs: number): Principal {
    if (authorization === undefined || authorization.trim() === '') {
      throw unauthorized('The request has no Authorization header. Send "Authorization: Bearer <API key>".', false);
    }
    const scheme = authorization.trim().split(/\s+/, 1)[0]!;
    if (scheme.toLowerCase() !== 'bearer') {
      // The "scheme" is not echoed: a bare key sent without one ("Authorization: <key>") would be its first
      // word, and an error body must never carry the key back (it ends up in logs and messages).
      throw unauthorized('The Authorization header does not use the Bearer scheme; only "Bearer <API key>" is accepted.', false);
    }
    const m = BEARER.exec(authorization.trim());
    if (!m) throw unauthorized('The bearer token is empty or malformed.', true);
    const entry = this.keys.get(m[1]!);
    if (!entry) throw unauthorized('The API key is not valid.', true);
    if (nowMs >= entry.expiresAtMs) throw unauthorized(`The API key expired at ${entry.key.expiresAt}.`, true);
    return { account: entry.account, key: entry.key };
  }
}

export function requireScope(p: Principal, scope: Scope): void {
  if (!p.key.scopes.includes(scope)) {
    throw new HttpProblem(403, `The API key lacks the "${scope}" scope that this route needs (it has: ${p.key.scopes.join(', ') || 'none'}).`);
  }
}

/** The endpoint of a job route, if the key may use it and the user owns it; else 403. */
export function requireEndpoint(p: Principal, endpointId: string): EndpointConfig {
  if (p.key.endpoints && !p.key.endpoints.includes(endpointId)) {
    throw new HttpProblem(403, `The API key is restricted to the endpoints ${p.key.endpoints.join(', ')}; it may not use "${endpointId}".`);
  }
  const endpoint = p.account.endpoints.get(endpointId);
  if (!endpoint) throw new HttpProblem(403, `The endpoint "${endpointId}" does not belong to this account.`);
  return endpoint;
}
