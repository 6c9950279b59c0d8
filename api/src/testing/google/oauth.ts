import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, json, Refusal, text } from './http';

/**
 * Google's OAuth 2.0 for a web server app: the consent page, the token endpoint (authorization_code and
 * refresh_token grants, checking the client id and secret), /revoke (of any token: the account's every grant to the
 * app, as Google does) and userinfo. Access tokens expire and a revoked grant refuses its refresh token.
 */

export interface StandInAccount {
  email: string;
  name: string;
  picture: string;
}

export interface StandInGrant {
  email: string;
  refreshToken: string;
  scope: string;
  revoked: boolean;
}

/** Seconds an access token lives, as Google's do. */
const ACCESS_TTL = 3599;
const DRIVE_FILE = 'https://www.googleapis.com/auth/drive.file';

export interface Grant extends StandInGrant {
  access: Map<string, { expires: number }>;
}

/** The account the consent page signs in as, and the root URL the stand-in listens on. */
export interface Stand {
  account: StandInAccount;
  base: string;
}

export type OAuth = ReturnType<typeof createOAuth>;

export function createOAuth(clientId: string, clientSecret: string, stand: Stand) {
  const counts = { exchanges: 0, refreshes: 0, revocations: 0 };
  const grants: Grant[] = [];
  const codes = new Map<string, { email: string; redirectUri: string; scope: string; used: boolean }>();

  const issueAccess = (grant: Grant) => {
    const token = `ya29.${randomBytes(18).toString('base64url')}`;
    grant.access.set(token, { expires: Date.now() + ACCESS_TTL * 1000 });
    return token;
  };
  const grantOfAccess = (request: IncomingMessage): Grant => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    for (const grant of grants) {
      const access = grant.access.get(token);
      if (access && !grant.revoked && access.expires > Date.now()) return grant;
    }
    throw new Refusal(401, 'Request had invalid authentication credentials.');
  };

  function consentPage(url: URL, response: ServerResponse): void {
    const params = url.searchParams;
    const redirectUri = params.get('redirect_uri') ?? '';
    const scope = params.get('scope') ?? '';
    const problems = [
      params.get('client_id') === clientId ? null : 'unknown client_id',
      params.get('response_type') === 'code' ? null : 'response_type must be code',
      /^https?:\/\//.test(redirectUri) ? null : 'redirect_uri is missing',
      scope.split(' ').includes(DRIVE_FILE) ? null : 'drive.file is not asked for',
    ].filter(Boolean);
    if (problems.length > 0) {
      response.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Error</title><p id="error">${escapeHtml(problems.join('; '))}</p>`);
      return;
    }
    const code = `4/${randomBytes(16).toString('base64url')}`;
    codes.set(code, { email: stand.account.email, redirectUri, scope, used: false });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('scope', scope);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const deny = new URL(redirectUri);
    deny.searchParams.set('error', 'access_denied');
    if (state !== null) deny.searchParams.set('state', state);
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>Sign in - Google Accounts</title></head><body>
<h1>Topline wants to access your Google Account</h1>
<p id="account">${escapeHtml(stand.account.email)}</p>
<ul id="scopes">${scope
      .split(' ')
      .map((s) => `<li>${escapeHtml(s)}</li>`)
      .join('')}</ul>
<a id="deny" href="${escapeHtml(deny.href)}">Cancel</a>
<a id="allow" href="${escapeHtml(back.href)}">Allow</a>
</body></html>`);
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await text(request));
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = request.headers.authorization ?? '';
    if (basic.startsWith('Basic ')) {
      const [user, pass] = Buffer.from(basic.slice(6), 'base64').toString('utf8').split(':');
      id = user ?? null;
      secret = pass ?? null;
    }
    if (id !== clientId || secret !== clientSecret) return json(response, 401, { error: 'invalid_client' });
    const kind = form.get('grant_type');
    if (kind === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.used || code.redirectUri !== form.get('redirect_uri')) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      code.used = true;
      counts.exchanges += 1;
      const grant: Grant = {
        email: code.email,
        refreshToken: `1//${randomBytes(24).toString('base64url')}`,
        scope: code.scope,
        revoked: false,
        access: new Map(),
      };
      grants.push(grant);
      return json(response, 200, {
        access_token: issueAccess(grant),
        refresh_token: grant.refreshToken,
        expires_in: ACCESS_TTL,
        scope: code.scope,
        token_type: 'Bearer',
      });
    }
    if (kind === 'refresh_token') {
      const grant = grants.find((g) => g.refreshToken === form.get('refresh_token'));
      if (!grant || grant.revoked) {
        return json(response, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      }
      counts.refreshes += 1;
      return json(response, 200, {
        access_token: issueAccess(grant),
        expires_in: ACCESS_TTL,
        scope: grant.scope,
        token_type: 'Bearer',
      });
    }
    return json(response, 400, { error: 'unsupported_grant_type' });
  }

  async function revoke(url: URL, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await text(request));
    const given = url.searchParams.get('token') ?? form.get('token') ?? '';
    const grant = grants.find((g) => g.refreshToken === given || g.access.has(given));
    if (!grant || grant.revoked) return json(response, 400, { error: 'invalid_token' });
    // As Google does, the user's whole grant to the app goes: every token of that account.
    for (const g of grants) if (g.email === grant.email) g.revoked = true;
    counts.revocations += 1;
    return json(response, 200, {});
  }

  function userinfo(request: IncomingMessage, response: ServerResponse): void {
    const grant = grantOfAccess(request);
    const account = accountOf(grant.email);
    json(response, 200, {
      id: `sub-${account.email}`,
      email: account.email,
      verified_email: true,
      name: account.name,
      picture: account.picture,
    });
  }

  function accountOf(email: string): StandInAccount {
    return email === stand.account.email ? stand.account : { email, name: email.split('@')[0] ?? '', picture: '' };
  }

  return { counts, grants, grantOfAccess, consentPage, token, revoke, userinfo };
}
