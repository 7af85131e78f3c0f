/**
 * POST /oauth2/token, the OAuth 2.0 client_credentials grant for FHIR clients: a client authenticates with its id
 * and secret and receives a short-lived opaque bearer token that the gate accepts on /fhir routes as its key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { IssuedAccessToken, StateStore } from '../state/state-store.js';
import { sendError } from './plumbing/error-responses.js';
import { rateLimitError } from './plumbing/gatekeeper.js';

export const OAUTH2_TOKEN_PATH = '/oauth2/token';
/** The scope every access token carries. */
export const ACCESS_TOKEN_SCOPE = 'system/*.read';
/** Scopes a token request may name: the one granted, in SMART v1 and v2 spelling. */
export const ACCEPTED_SCOPES: readonly string[] = [ACCESS_TOKEN_SCOPE, 'system/*.rs'];

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
/** A token request is a few short fields; anything longer is refused (413) before it is read. */
const MAX_FORM_BYTES = 8192;

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope';

/** An RFC 6749 §5.2 error answer. */
class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }

  get status(): number {
    return this.code === 'invalid_client' ? 401 : 400;
  }
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** The form's parameters; empty values count as omitted and a repeated parameter is refused (§3.2). */
function readForm(request: FastifyRequest): Map<string, string> {
  const body = typeof request.body === 'string' ? request.body : '';
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (body !== '' && mediaType !== FORM_MEDIA_TYPE) {
    throw new OAuthError(
      'invalid_request',
      `The token request must be sent as ${FORM_MEDIA_TYPE} (RFC 6749 §4.4.2), not '${mediaType || 'no Content-Type'}'.`,
    );
  }
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (value === '') continue;
    if (form.has(name)) throw new OAuthError('invalid_request', `Parameter '${name}' is sent more than once (RFC 6749 §3.2).`);
    form.set(name, value);
  }
  return form;
}

/** `application/x-www-form-urlencoded` decoding of one Basic credential part (RFC 6749 §2.3.1). */
function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'The HTTP Basic credentials are not validly form-encoded.');
  }
}

/** The client's id and secret: from HTTP Basic, or from the form — never both (§2.3). */
function clientCredentials(request: FastifyRequest, form: Map<string, string>): ClientCredentials {
  const header = request.headers.authorization?.trim();
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (header) {
    const basic = /^Basic\s+(\S+)$/i.exec(header);
    if (!basic) {
      throw new OAuthError('invalid_client', 'Unsupported client authentication: use HTTP Basic, or the client_id and client_secret form fields.');
    }
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'The HTTP Basic credentials are not of the form client_id:client_secret.');
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    if (formSecret !== undefined) {
      throw new OAuthError('invalid_request', 'Client credentials are sent both by HTTP Basic and as client_secret: use one method (RFC 6749 §2.3).');
    }
    if (formId !== undefined && formId !== clientId) {
      throw new OAuthError('invalid_request', 'The client_id form field differs from the HTTP Basic client id.');
    }
    return { clientId, clientSecret };
  }
  if (formId === undefined || formSecret === undefined) {
    throw new OAuthError(
      'invalid_client',
      `Client authentication is required: HTTP Basic (client_id:client_secret), or the client_id and client_secret form fields${
        formId !== undefined ? ' (client_secret is missing)' : ''
      }.`,
    );
  }
  return { clientId: formId, clientSecret: formSecret };
}

/** The scope the token is issued with, or invalid_scope naming what is not offered. */
function grantedScope(form: Map<string, string>): string {
  const requested = form.get('scope');
  if (requested === undefined) return ACCESS_TOKEN_SCOPE;
  const scopes = [...new Set(requested.split(' ').filter(Boolean))];
  const unknown = scopes.filter((s) => !ACCEPTED_SCOPES.includes(s));
  if (unknown.length || !scopes.length) {
    throw new OAuthError(
      'invalid_scope',
      `Unknown scope ${unknown.map((s) => `'${s}'`).join(', ') || `'${requested}'`}: tokens grant read access to the FHIR terminology surface, scope ${ACCEPTED_SCOPES.join(' or ')} (or omit scope).`,
    );
  }
  return scopes.join(' ');
}

/** Checks the request and issues the token; throws OAuthError for every refusal. */
async function grantToken(state: StateStore, request: FastifyRequest): Promise<IssuedAccessToken & { scope: string }> {
  const form = readForm(request);
  const grantType = form.get('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', "Missing required parameter 'grant_type' (client_credentials).");
  if (grantType !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', `grant_type '${grantType}' is not supported: this server issues tokens for client_credentials only.`);
  }
  const { clientId, clientSecret } = clientCredentials(request, form);
  const scope = grantedScope(form);
  const issued = await state.issueAccessToken(clientId, clientSecret);
  if (!issued) throw new OAuthError('invalid_client', 'Client authentication failed: unknown or revoked client, wrong secret, or its API key is revoked.');
  return { ...issued, scope };
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  // A 401 names the scheme to authenticate with (RFC 6749 §5.2, RFC 9110 §11.6.1).
  if (error.status === 401) reply.header('WWW-Authenticate', 'Basic realm="omopterm"');
  reply.header('Pragma', 'no-cache');
  return reply.code(error.status).send({ error: error.code, error_description: error.description });
}

const OAuthErrorBody = Type.Object({
  error: Type.String({ description: 'RFC 6749 §5.2 error code' }),
  error_description: Type.String(),
});

export function registerOAuth2TokenRoute(app: FastifyInstance, state: StateStore): void {
  void app.register(async (scope) => {
    // This scope reads its bodies itself: the form as text, anything else as text to be refused by name.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) => done(null, body));

    scope.post(
      OAUTH2_TOKEN_PATH,
      {
        config: { public: true },
        // The schemas below are for the API reference only: the handler checks the form, to answer in RFC 6749
        // §5.2 form, and answers are written as they are (the gate's errors on this route are envelopes).
        validatorCompiler: () => () => true,
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          tags: ['OAuth 2.0'],
          summary: 'Access token for the FHIR surface (OAuth 2.0 client_credentials)',
          description:
            'RFC 6749 §4.4 client_credentials grant (Authentication 4). Authenticate the client with HTTP Basic ' +
            '(client_id:client_secret, preferred) or the client_id and client_secret form fields; create clients with ' +
            '`omopterm clients create --key <key>`. The token is accepted as `Authorization: Bearer <token>` on /fhir routes ' +
            'only, as the client\'s API key (same rate limit, quota and licence), until `expires_in` seconds have passed or ' +
            `the client or its key is revoked. \`scope\` may be omitted or be ${ACCEPTED_SCOPES.join(' / ')}. Errors are RFC 6749 §5.2 JSON.`,
          security: [],
          consumes: [FORM_MEDIA_TYPE],
          body: Type.Object({
            grant_type: Type.Literal('client_credentials'),
            client_id: Type.Optional(Type.String({ description: 'when not sent by HTTP Basic' })),
            client_secret: Type.Optional(Type.String({ description: 'when not sent by HTTP Basic' })),
            scope: Type.Optional(Type.String({ description: `${ACCEPTED_SCOPES.join(' or ')}; default ${ACCESS_TOKEN_SCOPE}` })),
          }),
          response: {
            200: Type.Object({
              access_token: Type.String(),
              token_type: Type.Literal('Bearer'),
              expires_in: Type.Integer({ description: 'seconds until the token expires' }),
              scope: Type.String(),
            }),
            400: { ...OAuthErrorBody, description: 'invalid_request, unsupported_grant_type or invalid_scope' },
            401: { ...OAuthErrorBody, description: 'invalid_client (with WWW-Authenticate: Basic)' },
          },
        },
      },
      async (request, reply) => {
        const rate = request.rateDecision;
        if (rate && !rate.allowed) return sendError(request, reply, rateLimitError(rate, false));
        try {
          const token = await grantToken(state, request);
          reply.header('Pragma', 'no-cache');
          return { access_token: token.access_token, token_type: 'Bearer', expires_in: token.expires_in, scope: token.scope };
        } catch (error) {
          if (error instanceof OAuthError) return sendOAuthError(reply, error);
          throw error;
        }
      },
    );
  });
}
