/**
 * Errors on browser pages: the same ServiceError every surface raises, written as a page with its status, message
 * and request id (and a way back: sign in again, or search).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceError } from '../../services/errors.js';
import { sendPage } from './layout.js';
import { pageContext, type PagesOptions } from './page-context.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Sign in again',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Too large',
  422: 'Cannot be done',
  429: 'Too many requests',
};

export function pageErrorWriter(options: PagesOptions) {
  return (request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply => {
    const ctx = pageContext(request, options);
    const title = TITLES[error.status] ?? (error.status >= 500 ? 'Server error' : 'Error');
    return sendPage(reply, ctx, {
      title,
      status: error.status,
      body: (
        <section class="error-page">
          <h1>{title}</h1>
          <p role="alert" class="error">
            {error.message}
          </p>
          <p class="hint">
            Status {error.status} · <code>{error.code}</code> · request <code>{request.id}</code>
          </p>
          <p>
            {error.status === 401 ? (
              <a href={`/sign-in?next=${encodeURIComponent(ctx.path)}`}>Sign in</a>
            ) : (
              <a href={ctx.link('/search')}>Search concepts</a>
            )}{' '}
            · <a href={ctx.link('/')}>Home</a>
          </p>
        </section>
      ),
    });
  };
}
