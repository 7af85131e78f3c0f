/**
 * The domain list (GET /v1/domains, GET /v1/vocabularies/domains): every domain the specification
 * names (./omop-domains.ts), every domain of the release's DOMAIN table, and every domain the
 * caller's visible concepts use, sorted by domain_id (code-point order). Counts come from the concept summary.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { compareIds, tallyBy, visibleSummary } from '../concept-tallies.js';
import { SPEC_NAMED_DOMAINS } from './omop-domains.js';

export interface DomainEntry {
  domain_id: string;
  domain_name: string;
  description: string;
  /** From the release's DOMAIN table; null when the release does not list the domain. */
  domain_concept_id: number | null;
}

export interface DomainWithStats extends DomainEntry {
  concept_count: number;
  /** Concepts whose standard_concept is 'S'. */
  standard_concept_count: number;
}

const BUILT_IN = new Map(SPEC_NAMED_DOMAINS.map((d) => [d.domain_id, d]));

/** Every domain known to this release for this caller, sorted by domain_id. */
export function domainCatalog(view: ReleaseView): DomainEntry[] {
  const entries = new Map<string, DomainEntry>();
  for (const d of SPEC_NAMED_DOMAINS) entries.set(d.domain_id, { ...d, domain_concept_id: null });
  for (const d of view.store.metadata.domains()) {
    entries.set(d.domain_id, {
      domain_id: d.domain_id,
      domain_name: d.domain_name,
      description: BUILT_IN.get(d.domain_id)?.description ?? d.domain_name,
      domain_concept_id: d.domain_concept_id,
    });
  }
  for (const row of visibleSummary(view)) {
    if (!entries.has(row.domain_id)) {
      entries.set(row.domain_id, { domain_id: row.domain_id, domain_name: row.domain_id, description: row.domain_id, domain_concept_id: null });
    }
  }
  return [...entries.values()].sort((a, b) => compareIds(a.domain_id, b.domain_id));
}

export function findDomain(view: ReleaseView, domainId: string): DomainEntry | undefined {
  return domainCatalog(view).find((d) => d.domain_id === domainId);
}

export function listDomains(view: ReleaseView): DomainEntry[];
export function listDomains(view: ReleaseView, options: { includeStats: true }): DomainWithStats[];
export function listDomains(view: ReleaseView, options?: { includeStats?: boolean }): DomainEntry[] | DomainWithStats[];
export function listDomains(view: ReleaseView, options: { includeStats?: boolean } = {}): DomainEntry[] | DomainWithStats[] {
  const domains = domainCatalog(view);
  if (!options.includeStats) return domains;
  const tallies = tallyBy(visibleSummary(view), (r) => r.domain_id);
  return domains.map((d) => {
    const t = tallies.get(d.domain_id);
    return { ...d, concept_count: t?.total ?? 0, standard_concept_count: t?.standard ?? 0 };
  });
}
