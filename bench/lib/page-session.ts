/**
 * A browser session for the page scenarios: signs in through the sign-in form (its pre-session token included) with
 * the bench key and returns the headers a signed-in browser sends (the session cookie, Accept: text/html).
 */
import https from 'node:https';

function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: options.method ?? 'GET', headers: options.headers, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

function cookie(setCookie: string | string[] | undefined, name: string): string | undefined {
  for (const line of ([] as string[]).concat(setCookie ?? [])) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export async function pageSessionHeaders(baseUrl: string, apiKey: string): Promise<Record<string, string>> {
  const form = await send(`${baseUrl}/sign-in`);
  const token = cookie(form.headers['set-cookie'], 'omopterm_sign_in');
  if (!token) throw new Error(`the sign-in page gave no token (status ${form.status})`);
  const body = new URLSearchParams({ api_key: apiKey, next: '/', _csrf: token }).toString();
  const res = await send(`${baseUrl}/sign-in`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${token}`, origin: baseUrl, 'content-length': String(Buffer.byteLength(body)) },
  });
  const session = cookie(res.headers['set-cookie'], 'omopterm_session');
  if (res.status !== 303 || !session) throw new Error(`sign-in failed with status ${res.status}`);
  return { cookie: `omopterm_session=${session}`, accept: 'text/html' };
}
