/**
 * The browser adapter: HTML pages rendered by the server from the same service functions as the REST routes,
 * enhanced by htmx where it helps and complete without JavaScript. Form bodies (urlencoded) are parsed in this
 * scope only, so the API keeps refusing them. The gate authenticates every page by its session cookie.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../../state/state-store.js';
import { registerPageErrorWriter } from '../plumbing/error-responses.js';
import { registerAssetRoutes } from './assets.js';
import { registerConceptPages } from './concept-page.js';
import { registerConceptSetPages } from './concept-set-pages.js';
import { pageErrorWriter } from './error-page.js';
import { registerLandingPage } from './landing.js';
import type { PagesOptions } from './page-context.js';
import { registerSearchPages } from './search-page.js';
import { registerSignInPages } from './sign-in.js';
import { MAX_UPLOAD_BYTES, registerMappingPages } from './mapping-pages.js';
import { registerMappingQualityPage } from './mapping-quality-page.js';
import { registerMultipartForms } from './multipart-form.js';
import { registerVocabularyPages } from './vocabulary-pages.js';

/** Largest form body a page takes (an ATLAS expression pasted into the concept-set import). */
export const MAX_FORM_BYTES = 2 * 1024 * 1024;

export async function registerPages(app: FastifyInstance, options: PagesOptions & { state: StateStore }): Promise<void> {
  registerPageErrorWriter(pageErrorWriter(options));
  registerAssetRoutes(app);
  await app.register(async (pages) => {
    await pages.register(formbody, { bodyLimit: MAX_FORM_BYTES });
    registerMultipartForms(pages, { fileBytes: MAX_UPLOAD_BYTES, fieldBytes: 4000 });
    registerSignInPages(pages, options);
    registerLandingPage(pages, options);
    registerConceptPages(pages, options);
    registerConceptSetPages(pages, options);
    registerSearchPages(pages, options);
    registerVocabularyPages(pages, options);
    registerMappingQualityPage(pages, options);
    registerMappingPages(pages, options);
  });
}
