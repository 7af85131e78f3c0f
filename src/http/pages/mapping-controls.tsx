/**
 * One source term on the mapping review page: its candidates (score, reasons, domain, vocabulary, class; the chosen
 * one pre-selected) inside the review form (approve, flag, ignore, reset; equivalence, comment), and the search for
 * another concept. htmx posts the form and swaps the term (and the review progress) in place; without it the form
 * posts and the server redirects back.
 */
import type { VNode } from 'preact';
import type { CandidateReason } from '../../services/semantic/ranked-candidates.js';
import { EQUIVALENCES, type MappedTerm, type TermCandidate } from '../../services/source-mapping/mapping-types.js';
import type { ReleaseView } from '../../services/release-view.js';
import { CsrfField } from './layout.js';
import type { PageContext } from './page-context.js';
import { formatNumber as number, formatScore } from './page-parts.js';

export const MAPPING_PATH = '/mapping';
export const jobPath = (jobId: string) => `${MAPPING_PATH}/${encodeURIComponent(jobId)}`;
export const termPath = (jobId: string, index: number) => `${jobPath(jobId)}/terms/${index}`;

const REASON_WORDS: Record<CandidateReason, string> = {
  exact_code: 'exact code',
  exact_name: 'exact name',
  exact_synonym: 'exact synonym',
  keyword: 'keyword',
  meaning: 'meaning',
  maps_to: 'Maps to',
};

export function Reasons({ reasons, via }: { reasons: readonly CandidateReason[]; via?: readonly number[] }): VNode {
  return (
    <span class="reasons">
      {reasons.map((r) => (
        <span class={`badge reason-${r}`}>{REASON_WORDS[r] ?? r}</span>
      ))}
      {via && via.length ? <span class="hint"> via {via.slice(0, 3).join(', ')}</span> : null}
    </span>
  );
}

const STATUS_WORDS: Record<string, string> = { unchecked: 'Unchecked', approved: 'Approved', flagged: 'Flagged', ignored: 'Ignored' };
export const statusWord = (status: string) => STATUS_WORDS[status] ?? status;

export function StatusBadge({ status }: { status: string }): VNode {
  return <span class={`badge status-${status}`}>{statusWord(status)}</span>;
}

function setBy(term: MappedTerm): string {
  const by = term.review.status_set_by;
  if (!by) return '';
  const who = by.kind === 'reviewer' ? `by ${by.reviewer}` : `by the rule "${by.rule.replace(/_/g, ' ')}"`;
  return ` ${who}${term.review.status_set_at ? `, ${term.review.status_set_at.slice(0, 16).replace('T', ' ')} UTC` : ''}`;
}

/** The candidates a key may see (a job's stored copy is filtered by the viewer's licence again). */
export const visibleCandidates = (view: ReleaseView, candidates: readonly TermCandidate[]) => candidates.filter((c) => view.canSee(c.vocabulary_id));

/**
 * A term with its review form. `returnTo` is where the server sends the browser after a review (a local path);
 * `search` is the term's "search for another concept" results, when the page shows them.
 */
export function TermBlock({
  ctx,
  view,
  jobId,
  term,
  returnTo,
  search,
  searchQuery,
  heading = 'h3',
  limit,
}: {
  ctx: PageContext;
  view: ReleaseView;
  jobId: string;
  term: MappedTerm;
  returnTo: string;
  search?: VNode | null;
  searchQuery?: string;
  heading?: 'h1' | 'h3';
  /** Candidates listed (the chosen one always is); the term's own page lists them all. */
  limit?: number;
}): VNode {
  const { index } = term.term;
  const id = `term-${index}`;
  const all = visibleCandidates(view, term.candidates);
  const chosen = new Set(term.review.concept_ids);
  const candidates = limit === undefined || all.length <= limit ? all : all.filter((c, at) => at < limit || chosen.has(c.concept_id));
  // A chosen concept that is not among the candidates (found by search): shown first so it can be seen and kept.
  const chosenElsewhere = term.review.concept_ids.filter((cid) => !candidates.some((c) => c.concept_id === cid));
  const extra = view.concepts(chosenElsewhere);
  const Heading = heading;
  const reviewAction = ctx.link(`${termPath(jobId, index)}/review`);
  const htmx = { 'hx-post': reviewAction, 'hx-target': `#${id}`, 'hx-select': `#${id}`, 'hx-swap': 'outerHTML', 'hx-select-oob': '#review-progress' };
  return (
    <article class={`term status-${term.review.status}`} id={id} aria-labelledby={`${id}-name`}>
      <Heading id={`${id}-name`} class="term-name">
        {term.term.source_name}
      </Heading>
      <p class="term-facts">
        {term.term.source_code ? (
          <span>
            Code <code>{term.term.source_code}</code> ·{' '}
          </span>
        ) : null}
        Frequency <strong>{number(term.term.source_frequency)}</strong> · line {String(term.term.line)} · <StatusBadge status={term.review.status} />{' '}
        <span class="hint">
          {term.review.equivalence}
          {setBy(term)}
        </span>
        {Object.keys(term.term.additional_info).length ? (
          <span class="hint">
            {' '}
            ·{' '}
            {Object.entries(term.term.additional_info)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}
          </span>
        ) : null}
      </p>
      <form method="post" action={reviewAction} class="review-form" {...htmx}>
        <CsrfField ctx={ctx} />
        <input type="hidden" name="return_to" value={returnTo} />
        {candidates.length === 0 && extra.length === 0 ? (
          <p class="hint">No candidates{term.candidates.length ? ' your key may see' : ''}: search for another concept below, or ignore the term.</p>
        ) : (
          <table class="data candidates">
            <caption class="visually-hidden">Candidates, best first</caption>
            <thead>
              <tr>
                <th scope="col">Choose</th>
                <th scope="col" class="num">
                  Score
                </th>
                <th scope="col">Concept</th>
                <th scope="col">Why</th>
                <th scope="col">Domain</th>
                <th scope="col">Vocabulary</th>
                <th scope="col">Class</th>
              </tr>
            </thead>
            <tbody>
              {extra.map((c) => (
                <tr aria-current="true">
                  <td>
                    <input type="radio" name="concept_id" value={String(c.concept_id)} checked aria-labelledby={`${id}-n${c.concept_id}`} />
                  </td>
                  <td class="num">–</td>
                  <td>
                    <a href={ctx.link(`/concepts/${c.concept_id}`)} id={`${id}-n${c.concept_id}`}>
                      {c.concept_name}
                    </a>{' '}
                    <span class="hint">{String(c.concept_id)}</span>
                  </td>
                  <td>
                    <span class="badge">chosen by search</span>
                  </td>
                  <td>{c.domain_id}</td>
                  <td>{c.vocabulary_id}</td>
                  <td>{c.concept_class_id}</td>
                </tr>
              ))}
              {candidates.map((c, at) => {
                const checked = chosen.size ? chosen.has(c.concept_id) : at === 0 && extra.length === 0;
                return (
                  <tr aria-current={checked ? 'true' : undefined}>
                    <td>
                      <input type="radio" name="concept_id" value={String(c.concept_id)} checked={checked} aria-labelledby={`${id}-n${c.concept_id}`} />
                    </td>
                    <td class="num">{formatScore(c.score)}</td>
                    <td>
                      <a href={ctx.link(`/concepts/${c.concept_id}`)} id={`${id}-n${c.concept_id}`}>
                        {c.concept_name}
                      </a>{' '}
                      <span class="hint">{String(c.concept_id)}</span>
                      {c.standard_concept !== 'S' ? <span class="badge">{c.standard_concept === 'C' ? 'Classification' : 'Non-standard'}</span> : null}
                    </td>
                    <td>
                      <Reasons reasons={c.reasons} via={c.via_concept_ids} />
                    </td>
                    <td>{c.domain_id}</td>
                    <td>{c.vocabulary_id}</td>
                    <td>{c.concept_class_id}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {candidates.length < all.length ? (
          <p class="hint">
            <a href={ctx.link(termPath(jobId, index))}>All {String(all.length)} candidates</a>
          </p>
        ) : null}
        <div class="row review-controls">
          <label for={`${id}-equivalence`}>Equivalence</label>
          <select id={`${id}-equivalence`} name="equivalence">
            {EQUIVALENCES.map((e) => (
              <option value={e} selected={e === term.review.equivalence}>
                {e}
              </option>
            ))}
          </select>
          <label for={`${id}-comment`}>Comment</label>
          <input type="text" id={`${id}-comment`} name="comment" value={term.review.comment} maxLength={1000} />
          <button type="submit" name="action" value="approve" class="primary small" aria-describedby={`${id}-name`}>
            Approve
          </button>
          <button type="submit" name="action" value="flag" class="small" aria-describedby={`${id}-name`}>
            Flag
          </button>
          <button type="submit" name="action" value="ignore" class="small" aria-describedby={`${id}-name`}>
            Ignore
          </button>
          <button type="submit" name="action" value="reset" class="small" aria-describedby={`${id}-name`}>
            Reset
          </button>
        </div>
      </form>
      <form
        method="get"
        action={termPath(jobId, index)}
        class="row term-search"
        role="search"
        hx-get={termPath(jobId, index)}
        hx-target={`#${id}-search`}
        hx-select={`#${id}-search`}
        hx-swap="outerHTML"
      >
        {ctx.chosenRelease ? <input type="hidden" name="vocab_release" value={ctx.chosenRelease} /> : null}
        <label for={`${id}-q`}>Search for another concept</label>
        <input type="search" id={`${id}-q`} name="q" value={searchQuery ?? ''} maxLength={200} required />
        <button type="submit" class="small">
          Search
        </button>
      </form>
      <div id={`${id}-search`} aria-live="polite">
        {search ?? null}
      </div>
    </article>
  );
}
