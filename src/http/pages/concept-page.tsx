/**
 * The concept page (`GET /concepts/:id`): every field with copy buttons, synonyms with their language, the paths to
 * the root(s) and the children as an expandable tree, relationships grouped by type (one group's rows at a time,
 * paged), mappings out and in, the FHIR `$lookup` view with links to its raw JSON and XML, and which loaded releases
 * hold the concept with what changed between them. Every list is paged, so a hub concept with thousands of
 * relationships costs a few bounded reads. htmx fragments (`/concepts/:id/children`, `/concepts/:id/relationships`)
 * fill the tree and the groups in place; without JavaScript their links lead to the same content as whole pages.
 * Also the raw FHIR views served through the session: `/concepts/:id/fhir-lookup` and `/fhir-metadata`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { Type } from 'typebox';
import { getConceptById, type ConceptDetail } from '../../services/concepts/concept-lookup.js';
import { listConceptRelationships, type RelationshipRecord } from '../../services/concepts/concept-relationships.js';
import { outboundRelationshipCounts, type CountedRelationshipOption } from '../../services/concepts/relationship-options.js';
import { ServiceError } from '../../services/errors.js';
import { OMOP_CONCEPT_SYSTEM } from '../../services/fhir/code-system-uris.js';
import { conceptDescendants, type HierarchyNode } from '../../services/hierarchy/concept-hierarchy.js';
import { conceptRootPaths, type AncestorNode, type RootPaths } from '../../services/hierarchy/root-paths.js';
import { conceptMappings, type ConceptMappings } from '../../services/mappings/concept-mappings.js';
import type { ReleaseView } from '../../services/release-view.js';
import { diffCode, type ReleaseChange } from '../../services/terminology/release-diff.js';
import { FHIR_XML_TYPE } from '../fhir/fhir-format.js';
import { FHIR_VERSIONS, type FhirVersion } from '../fhir/fhir-operation.js';
import type { FhirParameter } from '../fhir/fhir-resources.js';
import { resourceToXml } from '../fhir/fhir-xml.js';
import { lookupResource } from '../fhir/operations/codesystem-lookup.js';
import { capabilityStatementResource } from '../fhir/operations/metadata.js';
import { FHIR_JSON_TYPE } from '../plumbing/error-responses.js';
import { resolveRelease } from '../plumbing/release-resolution.js';
import { AddToConceptSet } from './concept-set-controls.js';
import { pageHeaders, sendFragment, sendPage } from './layout.js';
import { pageContext, pageUrl, type PageContext, type PagesOptions } from './page-context.js';
import { formatNumber as number, StandardBadge } from './page-parts.js';

/** Children listed per page of the tree (the page and each htmx "more"). */
export const CHILDREN_PAGE_SIZE = 50;
/** Rows of one relationship group per page. */
export const RELATIONSHIP_PAGE_SIZE = 20;
/** Source concepts mapped to this one ("Mapped from") per page. */
export const MAPPED_FROM_PAGE_SIZE = 20;
/** `Maps to` / `Maps to value` targets shown (a concept has a handful; more are in the relationship groups). */
export const MAPS_TO_LIMIT = 50;
/** Ancestors listed by level (a concept has at most a few hundred). */
export const ANCESTOR_LIST_LIMIT = 100;
/** Rows of the FHIR $lookup table (a hub concept has hundreds of relationship properties: the rest are in the raw JSON). */
export const FHIR_TABLE_LIMIT = 60;
/** Highest page number any list of the page takes. */
export const MAX_PAGE = 10_000;

/** Names of language concepts for a release that lacks the concept itself (a vocabulary subset). */
const KNOWN_LANGUAGES: Record<number, string> = { 4180186: 'English language' };

const MAPS_OUT = ['Maps to', 'Maps to value'];
const MAPS_IN = ['Mapped from', 'Value mapped from'];

const PageNumber = Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE }));
const ConceptIdParams = Type.Object({ id: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) });
const ReleaseParam = { vocab_release: Type.Optional(Type.String()) };
const FhirVersionParam = Type.Optional(Type.Union(FHIR_VERSIONS.map((v) => Type.Literal(v))));
const FormatParam = Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('xml')]));

interface ConceptPageQuery {
  children_page?: number;
  rel?: string;
  rel_page?: number;
  mapped_from_page?: number;
}

const isHtmx = (request: FastifyRequest) => request.headers['hx-request'] === 'true';
const conceptPath = (id: number) => `/concepts/${id}`;

function requireView(ctx: PageContext): ReleaseView {
  if (!ctx.view) throw new ServiceError(503, 'service_unavailable', 'No vocabulary release is selected.');
  return ctx.view;
}

// ---------------------------------------------------------------------------------------------------------------
// Small pieces


function ValidityBadge({ invalidReason }: { invalidReason: string | null }): VNode | null {
  if (invalidReason === null) return null;
  return <span class="badge invalid">{invalidReason === 'U' ? 'Invalid: upgraded (U)' : invalidReason === 'D' ? 'Invalid: deleted (D)' : `Invalid (${invalidReason})`}</span>;
}

function ConceptLink({ ctx, id, name }: { ctx: PageContext; id: number; name: string }): VNode {
  return <a href={ctx.link(conceptPath(id))}>{name}</a>;
}

function CopyButton({ text, label }: { text: string; label: string }): VNode {
  return (
    <button type="button" class="small copy" data-copy={text} aria-label={label}>
      Copy
    </button>
  );
}

/** A one-line description of a concept after its link: vocabulary, code, class. */
function ConceptMeta({ c }: { c: { vocabulary_id: string; concept_code: string; concept_class_id?: string } }): VNode {
  return (
    <span class="concept-meta">
      {c.vocabulary_id} <code>{c.concept_code}</code>
      {c.concept_class_id ? ` · ${c.concept_class_id}` : ''}
    </span>
  );
}

/** Previous/next links of one paged list; `href(page)` is the no-JS link, `hx(page)` the optional fragment. */
function Pager({
  page,
  pageSize,
  total,
  href,
  hx,
  target,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  href: (page: number) => string;
  hx?: (page: number) => string;
  target?: string;
  label: string;
}): VNode | null {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1 && page <= 1) return null;
  const link = (p: number, text: string, rel: string) => (
    <a href={href(p)} rel={rel} hx-get={hx?.(p)} hx-target={hx ? target : undefined} hx-swap={hx ? 'innerHTML' : undefined}>
      {text}
    </a>
  );
  return (
    <nav class="pager" aria-label={label}>
      {page > 1 ? link(Math.min(page - 1, pages), 'Previous', 'prev') : null}
      <span>
        Page {number(page)} of {number(pages)} ({number(total)} in all)
      </span>
      {page < pages ? link(page + 1, 'Next', 'next') : null}
    </nav>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Fields and synonyms

function Fields({ ctx, c }: { ctx: PageContext; c: ConceptDetail }): VNode {
  return (
    <section aria-labelledby="fields-heading">
      <h2 id="fields-heading">Details</h2>
      <dl class="fields">
        <dt>Concept id</dt>
        <dd>
          <code id="concept-id">{c.concept_id}</code> <CopyButton text={String(c.concept_id)} label="Copy the concept id" />
        </dd>
        <dt>Name</dt>
        <dd>{c.concept_name}</dd>
        <dt>Domain</dt>
        <dd>
          <a href={ctx.link(`/vocabularies/${encodeURIComponent(c.vocabulary_id)}/domains/${encodeURIComponent(c.domain_id)}`)}>{c.domain_id}</a>
        </dd>
        <dt>Vocabulary</dt>
        <dd>
          <a href={ctx.link(`/vocabularies/${encodeURIComponent(c.vocabulary_id)}`)}>{c.vocabulary_id}</a>
          {c.vocabulary_name && c.vocabulary_name !== c.vocabulary_id ? <span class="hint"> ({c.vocabulary_name})</span> : null}
        </dd>
        <dt>Concept class</dt>
        <dd>{c.concept_class_id}</dd>
        <dt>Standard concept</dt>
        <dd>
          <StandardBadge flag={c.standard_concept} /> {c.standard_concept !== null ? <code>{c.standard_concept}</code> : null}
        </dd>
        <dt>Concept code</dt>
        <dd>
          <code id="concept-code">{c.concept_code}</code> <CopyButton text={c.concept_code} label="Copy the concept code" />
        </dd>
        <dt>Valid start date</dt>
        <dd>{c.valid_start_date}</dd>
        <dt>Valid end date</dt>
        <dd>{c.valid_end_date}</dd>
        <dt>Invalid reason</dt>
        <dd>{c.invalid_reason === null ? <span>none (valid)</span> : <ValidityBadge invalidReason={c.invalid_reason} />}</dd>
      </dl>
      <AddToConceptSet ctx={ctx} conceptId={c.concept_id} label={c.concept_name} />
    </section>
  );
}

function Synonyms({ c, languages }: { c: ConceptDetail; languages: Map<number, string> }): VNode {
  const synonyms = c.synonyms ?? [];
  return (
    <section aria-labelledby="synonyms-heading">
      <h2 id="synonyms-heading">Synonyms ({number(synonyms.length)})</h2>
      {synonyms.length === 0 ? (
        <p class="hint">No synonyms are published for this concept.</p>
      ) : (
        <table class="data synonyms">
          <thead>
            <tr>
              <th scope="col">Synonym</th>
              <th scope="col">Language</th>
            </tr>
          </thead>
          <tbody>
            {synonyms.map((s) => (
              <tr>
                <td>{s.concept_synonym_name}</td>
                <td>
                  {languages.get(s.language_concept_id) ?? KNOWN_LANGUAGES[s.language_concept_id] ?? 'Language concept'} <span class="hint">({s.language_concept_id})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Hierarchy

function RootPathList({ ctx, c, roots }: { ctx: PageContext; c: ConceptDetail; roots: RootPaths }): VNode {
  if (roots.ancestors.length === 0) return <p class="hint">This concept has no ancestors: it is a root of its hierarchy.</p>;
  return (
    <div>
      {roots.paths.length === 0 ? <p class="hint">No path of direct links reaches a root from here (ancestors by level are listed below).</p> : null}
      <ol class="root-paths">
        {roots.paths.map((path) => (
          <li>
            <ol class="path" aria-label={`Path from ${path[0]!.concept_name} to ${c.concept_name}`}>
              {path.map((node) => (
                <li>
                  <ConceptLink ctx={ctx} id={node.concept_id} name={node.concept_name} />
                </li>
              ))}
              <li aria-current="page">{c.concept_name}</li>
            </ol>
          </li>
        ))}
      </ol>
      {roots.truncated ? <p class="hint">More paths lead to the root; the first {roots.paths.length} are shown. Every ancestor is listed below.</p> : null}
      <details class="ancestors">
        <summary>All {number(roots.ancestors.length)} ancestors by level</summary>
        <table class="data">
          <thead>
            <tr>
              <th scope="col" class="num">
                Level
              </th>
              <th scope="col">Ancestor</th>
              <th scope="col">Vocabulary and code</th>
            </tr>
          </thead>
          <tbody>
            {roots.ancestors.slice(0, ANCESTOR_LIST_LIMIT).map((a: AncestorNode) => (
              <tr>
                <td class="num">
                  {a.min_levels_of_separation === a.max_levels_of_separation ? a.min_levels_of_separation : `${a.min_levels_of_separation}–${a.max_levels_of_separation}`}
                </td>
                <td>
                  <ConceptLink ctx={ctx} id={a.concept_id} name={a.concept_name} />
                </td>
                <td>
                  <ConceptMeta c={a} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {roots.ancestors.length > ANCESTOR_LIST_LIMIT ? <p class="hint">The nearest {ANCESTOR_LIST_LIMIT} are listed.</p> : null}
      </details>
    </div>
  );
}

/**
 * One child in the tree: a link to the child, then a <details> whose summary ("children") opens the child's own
 * children, loaded by htmx. The link is beside the summary, not in it: a link inside a summary is an interactive
 * control nested in another (axe's nested-interactive, serious), which screen readers announce badly.
 */
function TreeNode({ ctx, node }: { ctx: PageContext; node: HierarchyNode }): VNode {
  return (
    <li class="node">
      <ConceptLink ctx={ctx} id={node.concept_id} name={node.concept_name} /> <ConceptMeta c={node} />{' '}
      <details class="node-children" hx-get={ctx.link(`${conceptPath(node.concept_id)}/children`)} hx-trigger="toggle once" hx-target="find .children" hx-swap="innerHTML">
        <summary aria-label={`Children of ${node.concept_name}`}>children</summary>
        <ul class="children">
          <li class="hint">
            <a href={`${ctx.link(conceptPath(node.concept_id))}#children`}>Its children</a>
          </li>
        </ul>
      </details>
    </li>
  );
}

interface ChildrenPage {
  conceptId: number;
  nodes: HierarchyNode[];
  total: number;
  page: number;
}

/** The `<li>` items of one page of children, with a "more" item that htmx swaps for the next page. */
function ChildItems({ ctx, children, inTree }: { ctx: PageContext; children: ChildrenPage; inTree: boolean }): VNode {
  const { conceptId, nodes, total, page } = children;
  const shownTo = (page - 1) * CHILDREN_PAGE_SIZE + nodes.length;
  return (
    <>
      {nodes.length === 0 ? <li class="hint">{total === 0 ? 'No narrower concepts.' : 'No children on this page.'}</li> : null}
      {nodes.map((node) => (
        <TreeNode ctx={ctx} node={node} />
      ))}
      {shownTo < total ? (
        <li class="more">
          <a
            href={`${ctx.link(conceptPath(conceptId), { children_page: page + 1 })}#children`}
            hx-get={ctx.link(`${conceptPath(conceptId)}/children`, { page: page + 1 })}
            hx-target="closest li"
            hx-swap="outerHTML"
          >
            {inTree ? `More children (${number(shownTo)} of ${number(total)} shown)` : `Next ${number(Math.min(CHILDREN_PAGE_SIZE, total - shownTo))} children`}
          </a>
        </li>
      ) : null}
    </>
  );
}

function Hierarchy({ ctx, c, roots, children }: { ctx: PageContext; c: ConceptDetail; roots: RootPaths; children: ChildrenPage }): VNode {
  return (
    <section aria-labelledby="hierarchy-heading">
      <h2 id="hierarchy-heading">Hierarchy</h2>
      <h3 id="paths-heading">Path to the root</h3>
      <RootPathList ctx={ctx} c={c} roots={roots} />
      <h3 id="children-heading">Children ({number(children.total)})</h3>
      {children.page > 1 ? (
        <p>
          <a href={`${ctx.link(conceptPath(c.concept_id), { children_page: children.page - 1 })}#children`}>Previous children</a>
        </p>
      ) : null}
      <ul class="tree" id="children" aria-labelledby="children-heading">
        <ChildItems ctx={ctx} children={children} inTree={false} />
      </ul>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Relationships

interface RelationshipGroupPage {
  relationshipId: string;
  rows: RelationshipRecord[];
  total: number;
  page: number;
}

function relationshipHref(ctx: PageContext, conceptId: number, relationshipId: string, page = 1): string {
  return `${ctx.link(conceptPath(conceptId), { rel: relationshipId, rel_page: page > 1 ? page : undefined })}#relationships`;
}

function relationshipFragment(ctx: PageContext, conceptId: number, relationshipId: string, page = 1): string {
  return ctx.link(`${conceptPath(conceptId)}/relationships`, { relationship_id: relationshipId, page: page > 1 ? page : undefined });
}

/** One page of one relationship group: the concepts at the other end, and the pager. */
function RelationshipRows({ ctx, conceptId, group }: { ctx: PageContext; conceptId: number; group: RelationshipGroupPage }): VNode {
  return (
    <div>
      {group.rows.length === 0 ? (
        <p class="hint">{group.total === 0 ? 'No valid relationships of this type.' : 'No relationships on this page.'}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">Concept</th>
              <th scope="col">Vocabulary and code</th>
              <th scope="col">Domain</th>
              <th scope="col">Standard</th>
            </tr>
          </thead>
          <tbody>
            {group.rows.map((r) => {
              const other = r.concept_id_1 === conceptId ? r.concept_2 : r.concept_1;
              return (
                <tr>
                  <td>
                    <ConceptLink ctx={ctx} id={other.concept_id} name={other.concept_name} /> <ValidityBadge invalidReason={other.invalid_reason} />
                  </td>
                  <td>
                    <ConceptMeta c={other} />
                  </td>
                  <td>{other.domain_id}</td>
                  <td>
                    <StandardBadge flag={other.standard_concept} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager
        page={group.page}
        pageSize={RELATIONSHIP_PAGE_SIZE}
        total={group.total}
        href={(p) => relationshipHref(ctx, conceptId, group.relationshipId, p)}
        hx={(p) => relationshipFragment(ctx, conceptId, group.relationshipId, p)}
        target="closest .rel-rows"
        label={`Pages of ${group.relationshipId}`}
      />
    </div>
  );
}

function Relationships({
  ctx,
  c,
  groups,
  selected,
  unknownRel,
}: {
  ctx: PageContext;
  c: ConceptDetail;
  groups: CountedRelationshipOption[];
  selected: RelationshipGroupPage | null;
  unknownRel: string | null;
}): VNode {
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  return (
    <section aria-labelledby="relationships-heading" id="relationships">
      <h2 id="relationships-heading">Relationships ({number(total)})</h2>
      {unknownRel !== null ? (
        <p class="notice">
          This concept has no valid <code>{unknownRel}</code> relationships in release {ctx.view?.label}.
        </p>
      ) : null}
      {groups.length === 0 ? (
        <p class="hint">No valid relationships.</p>
      ) : (
        <ul class="rel-groups">
          {groups.map((g) => {
            const open = selected?.relationshipId === g.relationship_id;
            return (
              <li>
                <details
                  open={open}
                  hx-get={open ? undefined : relationshipFragment(ctx, c.concept_id, g.relationship_id)}
                  hx-trigger={open ? undefined : 'toggle once'}
                  hx-target={open ? undefined : 'find .rel-rows'}
                  hx-swap={open ? undefined : 'innerHTML'}
                >
                  <summary>
                    {g.relationship_name}
                    {g.relationship_name !== g.relationship_id ? <> <code>{g.relationship_id}</code></> : null} <span class="count">({number(g.count)})</span>
                  </summary>
                  <div class="rel-rows">
                    {open && selected ? (
                      <RelationshipRows ctx={ctx} conceptId={c.concept_id} group={selected} />
                    ) : (
                      <p class="hint">
                        <a href={relationshipHref(ctx, c.concept_id, g.relationship_id)}>List the {number(g.count)} concepts</a>
                      </p>
                    )}
                  </div>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Mappings

interface MappedFromPage {
  rows: RelationshipRecord[];
  total: number;
  page: number;
}

function Mappings({ ctx, c, out, into }: { ctx: PageContext; c: ConceptDetail; out: ConceptMappings; into: MappedFromPage }): VNode {
  return (
    <section aria-labelledby="mappings-heading" id="mappings">
      <h2 id="mappings-heading">Mappings</h2>
      <h3 id="maps-to-heading">Maps to ({number(out.total_mappings)})</h3>
      {out.mappings.length === 0 ? (
        <p class="hint">This concept has no valid Maps to or Maps to value targets.</p>
      ) : (
        <table class="data" aria-labelledby="maps-to-heading">
          <thead>
            <tr>
              <th scope="col">Relationship</th>
              <th scope="col">Target concept</th>
              <th scope="col">Vocabulary and code</th>
              <th scope="col">Domain</th>
              <th scope="col" class="num">
                Confidence
              </th>
            </tr>
          </thead>
          <tbody>
            {out.mappings.map((m) => (
              <tr>
                <td>{m.relationship_id}</td>
                <td>
                  <ConceptLink ctx={ctx} id={m.target_concept_id} name={m.target_concept_name} />{' '}
                  {m.target_concept_id === c.concept_id ? <span class="hint">(itself)</span> : null}
                </td>
                <td>
                  <ConceptMeta c={{ vocabulary_id: m.target_vocabulary_id, concept_code: m.target_concept_code }} />
                </td>
                <td>{m.target_domain_id}</td>
                <td class="num">{m.confidence.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {out.total_mappings > out.mappings.length ? (
        <p>
          <a href={relationshipHref(ctx, c.concept_id, 'Maps to')}>All {number(out.total_mappings)} targets</a>
        </p>
      ) : null}
      <h3 id="mapped-from-heading">Mapped from ({number(into.total)})</h3>
      {into.rows.length === 0 ? (
        <p class="hint">{into.total === 0 ? 'No source concept maps to this concept.' : 'No source concepts on this page.'}</p>
      ) : (
        <table class="data" aria-labelledby="mapped-from-heading">
          <thead>
            <tr>
              <th scope="col">Source concept</th>
              <th scope="col">Vocabulary and code</th>
              <th scope="col">Relationship</th>
            </tr>
          </thead>
          <tbody>
            {into.rows.map((r) => (
              <tr>
                <td>
                  <ConceptLink ctx={ctx} id={r.concept_2.concept_id} name={r.concept_2.concept_name} />{' '}
                  {r.concept_2.concept_id === c.concept_id ? <span class="hint">(itself)</span> : <ValidityBadge invalidReason={r.concept_2.invalid_reason} />}
                </td>
                <td>
                  <ConceptMeta c={r.concept_2} />
                </td>
                <td>{r.relationship_id === 'Mapped from' ? 'Maps to' : 'Maps to value'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        page={into.page}
        pageSize={MAPPED_FROM_PAGE_SIZE}
        total={into.total}
        href={(p) => `${ctx.link(conceptPath(c.concept_id), { mapped_from_page: p > 1 ? p : undefined })}#mappings`}
        label="Pages of source concepts"
      />
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// FHIR view

function fhirValue(p: FhirParameter): string {
  for (const [key, value] of Object.entries(p)) {
    if (!key.startsWith('value')) continue;
    if (value !== null && typeof value === 'object') {
      const coding = value as { system?: string; code?: string; display?: string };
      return [coding.system ? `${coding.system}|${coding.code ?? ''}` : (coding.code ?? ''), coding.display ? `(${coding.display})` : ''].filter(Boolean).join(' ');
    }
    return String(value);
  }
  return '';
}

function FhirRow({ p }: { p: FhirParameter }): VNode {
  const parts = p.part ?? [];
  if (p.name === 'property') {
    const code = parts.find((x) => x.name === 'code');
    const value = parts.find((x) => x.name === 'value');
    return (
      <tr>
        <th scope="row">property</th>
        <td>
          <code>{code ? fhirValue(code) : ''}</code>
        </td>
        <td>{value ? fhirValue(value) : ''}</td>
      </tr>
    );
  }
  if (parts.length) {
    return (
      <tr>
        <th scope="row">{p.name}</th>
        <td>{parts.filter((x) => x.name !== 'value').map((x) => `${x.name}: ${fhirValue(x)}`).join('; ')}</td>
        <td>{parts.filter((x) => x.name === 'value').map(fhirValue).join('; ')}</td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">{p.name}</th>
      <td></td>
      <td>{fhirValue(p)}</td>
    </tr>
  );
}

function FhirView({ ctx, c, lookup }: { ctx: PageContext; c: ConceptDetail; lookup: { parameter?: FhirParameter[] } }): VNode {
  const parameters = lookup.parameter ?? [];
  const link = (format: 'json' | 'xml', version: FhirVersion) => ctx.link(`${conceptPath(c.concept_id)}/fhir-lookup`, { format, fhir_version: version });
  return (
    <section aria-labelledby="fhir-heading" id="fhir">
      <h2 id="fhir-heading">FHIR view</h2>
      <p>
        <code>CodeSystem/$lookup</code> of system <code>{OMOP_CONCEPT_SYSTEM}</code>, code <code>{c.concept_id}</code> (FHIR R4). Raw:{' '}
        <a href={link('json', 'r4')}>JSON</a> · <a href={link('xml', 'r4')}>XML</a>; other versions:{' '}
        {FHIR_VERSIONS.filter((v) => v !== 'r4').map((v, i) => (
          <span>
            {i > 0 ? ' · ' : ''}
            <a href={link('json', v)}>{v.toUpperCase()} JSON</a>
          </span>
        ))}
        . Programs call <code>/fhir/r4/CodeSystem/$lookup?system={OMOP_CONCEPT_SYSTEM}&amp;code={c.concept_id}</code> with their key.
      </p>
      <table class="data fhir-lookup">
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Code or part</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {parameters.slice(0, FHIR_TABLE_LIMIT).map((p) => (
            <FhirRow p={p} />
          ))}
        </tbody>
      </table>
      {parameters.length > FHIR_TABLE_LIMIT ? (
        <p class="hint">
          The first {FHIR_TABLE_LIMIT} of {number(parameters.length)} parameters are shown; the <a href={link('json', 'r4')}>raw JSON</a> has them all.
        </p>
      ) : null}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Releases

interface ReleasePresence {
  label: string;
  version: string;
  current: boolean;
  isDefault: boolean;
  concept: { concept_name: string; invalid_reason: string | null; standard_concept: 'S' | 'C' | null } | undefined;
  /** Changes between this release and the current one, oldest release first; undefined for the current release. */
  changes?: ReleaseChange[];
  /** This release is older than the current one. */
  earlier: boolean;
}

/** Every loaded release (in vocabulary-date order) with the concept as it is there and the changes to the current one. */
function releasePresence(options: PagesOptions, view: ReleaseView, conceptId: number): ReleasePresence[] {
  const defaultLabel = options.registry.getDefaultLabel();
  const views = options.registry
    .labels()
    .map((label) => (label === view.label ? view : view.onRelease(resolveRelease(options.registry, label, { surface: 'page' }))))
    .sort((a, b) => a.codeSystemVersion.localeCompare(b.codeSystemVersion) || a.label.localeCompare(b.label));
  const currentAt = views.findIndex((v) => v.label === view.label);
  return views.map((other, at) => {
    const concept = other.concept(conceptId);
    const row: ReleasePresence = { label: other.label, version: other.codeSystemVersion, current: other.label === view.label, isDefault: other.label === defaultLabel, concept, earlier: at < currentAt };
    if (!row.current) {
      const [before, after] = row.earlier ? [other, view] : [view, other];
      try {
        row.changes = diffCode(before, after, OMOP_CONCEPT_SYSTEM, String(conceptId));
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status !== 404) throw error;
        row.changes = [];
      }
    }
    return row;
  });
}

function ChangeList({ changes }: { changes: ReleaseChange[] }): VNode {
  if (changes.length === 0) return <span class="hint">no change</span>;
  return (
    <ul class="changes">
      {changes.map((ch) => (
        <li>
          <strong>{ch.type}</strong>: <span class="removed">{ch.from === '' ? '(none)' : ch.from}</span> → <span class="added">{ch.to === '' ? '(none)' : ch.to}</span>
        </li>
      ))}
    </ul>
  );
}

function Releases({ c, releases }: { c: ConceptDetail; releases: ReleasePresence[] }): VNode {
  return (
    <section aria-labelledby="releases-heading" id="releases">
      <h2 id="releases-heading">Releases</h2>
      <p class="hint">Every loaded release, oldest first, with what changed for this concept between it and the release shown (CodeSystem/$diff).</p>
      <table class="data">
        <thead>
          <tr>
            <th scope="col">Release</th>
            <th scope="col">Vocabulary date</th>
            <th scope="col">In this release</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {releases.map((r) => (
            <tr aria-current={r.current ? 'true' : undefined}>
              <th scope="row">
                {r.concept ? <a href={pageUrl(conceptPath(c.concept_id), { vocab_release: r.label })}>{r.label}</a> : r.label}
                {r.isDefault ? ' (default)' : ''}
              </th>
              <td>{r.version}</td>
              <td>
                {r.concept ? (
                  <span>
                    {r.concept.concept_name} <StandardBadge flag={r.concept.standard_concept} /> <ValidityBadge invalidReason={r.concept.invalid_reason} />
                  </span>
                ) : (
                  <span class="hint">not in this release</span>
                )}
              </td>
              <td>
                {r.current ? (
                  <span class="hint">the release shown</span>
                ) : (
                  <div>
                    <span class="hint">{r.earlier ? `from ${r.label} to the release shown:` : `from the release shown to ${r.label}:`}</span>
                    <ChangeList changes={r.changes ?? []} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Data

function childrenPage(view: ReleaseView, conceptId: number, page: number): ChildrenPage {
  const { data, total } = conceptDescendants(view, conceptId, { max_levels: 1 }, { offset: (page - 1) * CHILDREN_PAGE_SIZE, limit: CHILDREN_PAGE_SIZE });
  return { conceptId, nodes: data.descendants, total, page };
}

function relationshipGroupPage(view: ReleaseView, conceptId: number, relationshipId: string, page: number): RelationshipGroupPage {
  const { relationships, total } = listConceptRelationships(
    view,
    conceptId,
    { relationshipIds: [relationshipId], includeInvalid: false, standardOnly: false, includeReverse: false },
    { offset: (page - 1) * RELATIONSHIP_PAGE_SIZE, limit: RELATIONSHIP_PAGE_SIZE },
  );
  return { relationshipId, rows: relationships, total, page };
}

async function renderConceptPage(request: FastifyRequest, reply: FastifyReply, options: PagesOptions, id: number, query: ConceptPageQuery): Promise<FastifyReply> {
  const ctx = pageContext(request, options);
  const view = requireView(ctx);
  const concept = getConceptById(view, id, { include_synonyms: true });
  const languageIds = [...new Set((concept.synonyms ?? []).map((s) => s.language_concept_id))];
  const languages = new Map(view.concepts(languageIds).map((l) => [l.concept_id, l.concept_name]));
  const roots = conceptRootPaths(view, id);
  const children = childrenPage(view, id, query.children_page ?? 1);
  const groups = outboundRelationshipCounts(view, id);
  const known = query.rel !== undefined && groups.some((g) => g.relationship_id === query.rel);
  const selected = known ? relationshipGroupPage(view, id, query.rel!, query.rel_page ?? 1) : null;
  const out = conceptMappings(view, { conceptId: id, relationshipIds: MAPS_OUT, includeInvalid: false, offset: 0, limit: MAPS_TO_LIMIT });
  const mappedFromPage = query.mapped_from_page ?? 1;
  const mappedFrom = listConceptRelationships(
    view,
    id,
    { relationshipIds: MAPS_IN, includeInvalid: false, standardOnly: false, includeReverse: false },
    { offset: (mappedFromPage - 1) * MAPPED_FROM_PAGE_SIZE, limit: MAPPED_FROM_PAGE_SIZE },
  );
  const lookup = lookupResource(view, 'r4', { system: OMOP_CONCEPT_SYSTEM, code: String(id) }) as { parameter?: FhirParameter[] };
  const releases = releasePresence(options, view, id);

  return sendPage(reply, ctx, {
    title: `${concept.concept_name} (${concept.concept_id})`,
    section: 'search',
    body: (
      <article class="concept-page">
        <header class="concept-head">
          <p class="hint">
            {concept.vocabulary_id} · {concept.domain_id} · {concept.concept_class_id}
          </p>
          <h1>{concept.concept_name}</h1>
          <p class="row">
            <StandardBadge flag={concept.standard_concept} /> <ValidityBadge invalidReason={concept.invalid_reason} /> <span>
              id <code>{concept.concept_id}</code>
            </span>{' '}
            <span>
              code <code>{concept.concept_code}</code>
            </span>
          </p>
          <nav aria-label="On this page" class="toc">
            <a href="#hierarchy-heading">Hierarchy</a> · <a href="#relationships">Relationships</a> · <a href="#mappings">Mappings</a> · <a href="#fhir">FHIR</a> ·{' '}
            <a href="#releases">Releases</a>
          </nav>
        </header>
        <Fields ctx={ctx} c={concept} />
        <Synonyms c={concept} languages={languages} />
        <Hierarchy ctx={ctx} c={concept} roots={roots} children={children} />
        <Mappings ctx={ctx} c={concept} out={out} into={{ rows: mappedFrom.relationships, total: mappedFrom.total, page: mappedFromPage }} />
        <Relationships ctx={ctx} c={concept} groups={groups} selected={selected} unknownRel={query.rel !== undefined && !known ? query.rel : null} />
        <FhirView ctx={ctx} c={concept} lookup={lookup} />
        <Releases c={concept} releases={releases} />
      </article>
    ),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

/** Answers a raw FHIR resource through the session, as the FHIR surface writes it (JSON, or XML). */
function sendRawResource(reply: FastifyReply, resource: object, format: 'json' | 'xml', filename?: string): FastifyReply {
  pageHeaders(reply);
  if (filename) reply.header('Content-Disposition', `attachment; filename="${filename}.${format}"`);
  if (format === 'xml') return reply.type(FHIR_XML_TYPE).send(resourceToXml(resource));
  return reply.type(FHIR_JSON_TYPE).send(JSON.stringify(resource));
}

export function registerConceptPages(app: FastifyInstance, options: PagesOptions): void {
  app.get<{ Params: { id: number }; Querystring: ConceptPageQuery }>(
    '/concepts/:id',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        params: ConceptIdParams,
        querystring: Type.Object({
          children_page: PageNumber,
          rel: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          rel_page: PageNumber,
          mapped_from_page: PageNumber,
          ...ReleaseParam,
        }),
      },
    },
    (request, reply) => renderConceptPage(request, reply, options, request.params.id, request.query),
  );

  // htmx: one page of a concept's children as tree items; a browser without htmx is sent to the concept page.
  app.get<{ Params: { id: number }; Querystring: { page?: number } }>(
    '/concepts/:id/children',
    { config: { page: 'signed-in' }, schema: { hide: true, params: ConceptIdParams, querystring: Type.Object({ page: PageNumber, ...ReleaseParam }) } },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const id = request.params.id;
      const page = request.query.page ?? 1;
      if (!isHtmx(request)) return reply.redirect(`${ctx.link(conceptPath(id), { children_page: page > 1 ? page : undefined })}#children`, 303);
      const children = childrenPage(requireView(ctx), id, page);
      return sendFragment(reply, <ChildItems ctx={ctx} children={children} inTree={true} />);
    },
  );

  // htmx: one page of one relationship group; without htmx, the concept page with that group open.
  app.get<{ Params: { id: number }; Querystring: { relationship_id: string; page?: number } }>(
    '/concepts/:id/relationships',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        params: ConceptIdParams,
        querystring: Type.Object({ relationship_id: Type.String({ minLength: 1, maxLength: 100 }), page: PageNumber, ...ReleaseParam }),
      },
    },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const id = request.params.id;
      const page = request.query.page ?? 1;
      if (!isHtmx(request)) return reply.redirect(relationshipHref(ctx, id, request.query.relationship_id, page), 303);
      const group = relationshipGroupPage(requireView(ctx), id, request.query.relationship_id, page);
      return sendFragment(reply, <RelationshipRows ctx={ctx} conceptId={id} group={group} />);
    },
  );

  // The concept's $lookup exactly as GET /fhir/{version}/CodeSystem/$lookup answers it, through the session.
  app.get<{ Params: { id: number }; Querystring: { format?: 'json' | 'xml'; fhir_version?: FhirVersion } }>(
    '/concepts/:id/fhir-lookup',
    {
      config: { page: 'signed-in' },
      schema: { hide: true, params: ConceptIdParams, querystring: Type.Object({ format: FormatParam, fhir_version: FhirVersionParam, ...ReleaseParam }) },
    },
    async (request, reply) => {
      const view = requireView(pageContext(request, options));
      const resource = lookupResource(view, request.query.fhir_version ?? 'r4', { system: OMOP_CONCEPT_SYSTEM, code: String(request.params.id) });
      return sendRawResource(reply, resource, request.query.format ?? 'json');
    },
  );

  // The FHIR CapabilityStatement: a page showing it, or (format=json|xml) the resource itself as a download.
  app.get<{ Querystring: { format?: 'json' | 'xml'; fhir_version?: FhirVersion } }>(
    '/fhir-metadata',
    { config: { page: 'signed-in' }, schema: { hide: true, querystring: Type.Object({ format: FormatParam, fhir_version: FhirVersionParam, ...ReleaseParam }) } },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const version = request.query.fhir_version ?? 'r4';
      const resource = capabilityStatementResource(request.server, requireView(ctx), version);
      if (request.query.format) return sendRawResource(reply, resource, request.query.format, `capability-statement-${version}`);
      const link = (params: Record<string, string>) => ctx.link('/fhir-metadata', params);
      return sendPage(reply, ctx, {
        title: `FHIR CapabilityStatement (${version.toUpperCase()})`,
        section: 'home',
        body: (
          <section class="fhir-metadata">
            <h1>FHIR CapabilityStatement</h1>
            <p>
              What <code>/fhir/{version}/metadata</code> answers (FHIR {version.toUpperCase()}), for release {ctx.view?.label}. Programs send{' '}
              <code>Authorization: Bearer &lt;key&gt;</code>.
            </p>
            <nav aria-label="FHIR versions" class="row">
              <span>Version:</span>
              {FHIR_VERSIONS.map((v) => (v === version ? <strong aria-current="page">{v.toUpperCase()}</strong> : <a href={link({ fhir_version: v })}>{v.toUpperCase()}</a>))}
            </nav>
            <p class="row">
              <a class="button" href={link({ fhir_version: version, format: 'json' })} download={`capability-statement-${version}.json`}>
                Download JSON
              </a>
              <a class="button" href={link({ fhir_version: version, format: 'xml' })} download={`capability-statement-${version}.xml`}>
                Download XML
              </a>
            </p>
            <pre class="resource" tabIndex={0} aria-label={`CapabilityStatement, FHIR ${version.toUpperCase()}, JSON`}>
              {JSON.stringify(resource, null, 2)}
            </pre>
          </section>
        ),
      });
    },
  );
}
