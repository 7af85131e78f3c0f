/**
 * A browser-like HTTP client for page tests without a browser: signs in through the sign-in form (pre-session token
 * and all), keeps the session cookie, reads the CSRF token of a page and posts forms as a browser would.
 */
import { rawRequest, type TestResponse, type TestServer } from './test-server.js';

export interface PageClient {
  /** The Cookie header this client sends (session cookie once signed in). */
  cookie: string;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** Posts a urlencoded form; the session's CSRF token is added unless `_csrf` is given. */
  post(path: string, form: Record<string, string | string[]>, headers?: Record<string, string>): Promise<TestResponse>;
  /** The CSRF token printed in the pages (meta csrf-token). */
  csrfToken(): Promise<string>;
}

function cookieValue(setCookie: string[] | string | undefined, name: string): string | undefined {
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export function formBody(form: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  return search.toString();
}

export function pageClient(t: TestServer, cookie = ''): PageClient {
  const client: PageClient = {
    cookie,
    get: (path, headers = {}) => rawRequest(`${t.url}${path}`, { headers: { accept: 'text/html', ...(client.cookie ? { cookie: client.cookie } : {}), ...headers } }),
    post: async (path, form, headers = {}) => {
      const body = { ...form };
      if (!('_csrf' in body)) body._csrf = await client.csrfToken();
      return rawRequest(`${t.url}${path}`, {
        method: 'POST',
        body: formBody(body),
        headers: {
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          origin: t.url,
          ...(client.cookie ? { cookie: client.cookie } : {}),
          ...headers,
        },
      });
    },
    csrfToken: async () => {
      const page = await client.get('/');
      const match = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text);
      if (!match) throw new Error(`no CSRF token on / (status ${page.status})`);
      return match[1]!;
    },
  };
  return client;
}

/** Signs in with an API key through the sign-in form; resolves to a client holding the session cookie. */
export async function signIn(t: TestServer, key = t.key): Promise<PageClient> {
  const form = await rawRequest(`${t.url}/sign-in`, { headers: { accept: 'text/html' } });
  const preToken = cookieValue(form.headers['set-cookie'], 'omopterm_sign_in');
  const fieldToken = /name="_csrf" value="([^"]+)"/.exec(form.text)?.[1];
  if (!preToken || preToken !== fieldToken) throw new Error('the sign-in form did not carry its token');
  const res = await rawRequest(`${t.url}/sign-in`, {
    method: 'POST',
    body: formBody({ api_key: key, next: '/', _csrf: preToken }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${preToken}`, origin: t.url },
  });
  const session = cookieValue(res.headers['set-cookie'], 'omopterm_session');
  if (res.status !== 303 || !session) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 300)}`);
  return pageClient(t, `omopterm_session=${session}`);
}
