/**
 * `GET /`: the browser's home page: a search box, the loaded releases with their counts (the switcher's choices),
 * and the ways in: vocabularies, concept-set builder, the API reference and the FHIR surface.
 */
import type { FastifyInstance } from 'fastify';
import { listReleases } from '../../services/vocabularies/release-catalog.js';
import { sendPage } from './layout.js';
import { pageContext, type PagesOptions } from './page-context.js';
import { formatNumber as number, ReleaseField } from './page-parts.js';

export function registerLandingPage(app: FastifyInstance, options: PagesOptions): void {
  app.get('/', { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const ctx = pageContext(request, options);
    const { releases } = listReleases(options.registry);
    return sendPage(reply, ctx, {
      title: 'Home',
      section: 'home',
      body: [
        <h1>OMOP vocabularies</h1>,
        <form class="search-box" method="get" action="/search" role="search">
          <ReleaseField ctx={ctx} />
          <label for="home-q">Search concepts</label>
          <input id="home-q" name="q" type="search" placeholder="e.g. type 2 diabetes, 44054006, E11.9" />
          <button type="submit">Search</button>
        </form>,
        <section aria-labelledby="releases-heading">
          <h2 id="releases-heading">Releases loaded</h2>
          {releases.length === 0 ? (
            <p>
              None yet: load one with <code>omopterm load &lt;athena-dir&gt; --release YYYY.Q</code>.
            </p>
          ) : (
            <table class="data">
              <caption class="visually-hidden">Releases loaded on this server, with their row counts</caption>
              <thead>
                <tr>
                  <th scope="col">Release</th>
                  <th scope="col">Vocabulary version</th>
                  <th scope="col" class="num">
                    Concepts
                  </th>
                  <th scope="col" class="num">
                    Relationships
                  </th>
                  <th scope="col" class="num">
                    Ancestor rows
                  </th>
                  <th scope="col" class="num">
                    Synonyms
                  </th>
                  <th scope="col">Loaded</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => (
                  <tr aria-current={r.label === ctx.view?.label ? 'true' : undefined}>
                    <th scope="row">
                      <a href={`/?vocab_release=${encodeURIComponent(r.label)}`}>{r.label}</a>
                      {r.is_default ? ' (default)' : ''}
                    </th>
                    <td>{r.source_vocabulary_version ?? ''}</td>
                    <td class="num">{number(r.concept_count)}</td>
                    <td class="num">{number(r.relationship_count)}</td>
                    <td class="num">{number(r.ancestor_count)}</td>
                    <td class="num">{number(r.synonym_count)}</td>
                    <td>{r.loaded_at ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>,
        <section aria-labelledby="more-heading">
          <h2 id="more-heading">More</h2>
          <ul>
            <li>
              <a href={ctx.link('/vocabularies')}>Vocabularies and statistics</a>
            </li>
            <li>
              <a href={ctx.link('/concept-set')}>Concept-set builder</a>
            </li>
            <li>
              <a href="/docs">API reference</a> (the OpenAPI document is <a href="/openapi.json">/openapi.json</a>)
            </li>
            <li>
              <a href={ctx.link('/fhir-metadata')}>FHIR CapabilityStatement</a> (the FHIR surface is <code>/fhir/r4</code>,{' '}
              <code>/fhir/r4b</code>, <code>/fhir/r5</code>, <code>/fhir/r6</code>; programs send{' '}
              <code>Authorization: Bearer &lt;key&gt;</code>)
            </li>
          </ul>
        </section>,
      ],
    });
  });
}
