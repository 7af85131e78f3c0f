/**
 * ValueSet/$expand and membership as domain logic over a definition (./value-set-compose.ts): a page is one paged
 * read when one rule's source is the whole rule, else collected within bounds (422 too-costly beyond them).
 */
import type { ConceptRecord, SynonymRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ReleaseView } from '../release-view.js';
import { ServiceError, validationError } from '../errors.js';
import { searchConcepts } from '../search/keyword-search.js';
import { codeOfConcept } from './code-system-concept.js';
import type { MemberRule, ValueSetDefinition } from './value-set-compose.js';
import { composeMemberIds } from '../concept-sets/concept-set-value-set.js';
import { indexOfSorted } from '../concept-sets/resolve.js';
import { OMOP_CONCEPT_SYSTEM } from '../fhir/code-system-uris.js';

/** The most codes one expansion answer lists. */
export const MAX_EXPANSION_PAGE = 1000;
/** The most candidates read to collect an expansion that has no single exact source. */
const MAX_CANDIDATE_SCAN = 100_000;
/** The most members collected for such an expansion. */
const MAX_COLLECTED_MEMBERS = 10_000;
/** How many keyword-search matches a text filter looks at. */
const TEXT_FILTER_WINDOW = 1000;

const SCAN_BATCH = 1000;

export interface ExpansionRequest {
  /** Text the members must match (keyword search). */
  filter?: string;
  offset: number;
  /** Codes wanted; undefined: all of them (at most MAX_EXPANSION_PAGE). */
  count?: number;
  includeDesignations: boolean;
}

export interface ExpansionMember {
  system: string;
  code: string;
  concept: ConceptRecord;
  designations?: SynonymRecord[];
}

export interface Expansion {
  total: number;
  offset: number;
  members: ExpansionMember[];
  /** The code systems the members come from (canonical URIs, in rule order). */
  systems: string[];
}

function tooCostly(total: number | string): ServiceError {
  return new ServiceError(
    422,
    'too-costly',
    `The expansion has ${total} codes, more than the ${MAX_EXPANSION_PAGE} one answer may list: page it with 'count' (at most ${MAX_EXPANSION_PAGE}) and 'offset', or narrow it with 'filter'.`,
    { total },
  );
}

/**
 * The definition ready for use: a compose stating a concept set gets one exact include whose members are the
 * concept-set resolver's answer (ascending concept ids, exact total, a page read by id), so $expand and
 * $validate-code answer what resolve answers; any other definition is returned as it is.
 */
export async function conceptSetMembers(view: ReleaseView, definition: ValueSetDefinition, activeOnly: boolean): Promise<ValueSetDefinition> {
  if (!definition.conceptSet) return definition;
  const ids = await composeMemberIds(view, definition.conceptSet, activeOnly);
  const rule: MemberRule = {
    system: { kind: 'omop-concept-id', canonical: OMOP_CONCEPT_SYSTEM },
    accepts: (concept) => indexOfSorted(ids, concept.concept_id) >= 0,
    source: {
      total: () => ids.length,
      page: (offset, limit) =>
        limit <= 0 ? [] : view.concepts([...ids.subarray(offset, offset + limit)]).sort((a, b) => a.concept_id - b.concept_id),
    },
    exact: true,
    searchFilters: {},
  };
  return { ...definition, includes: [rule], excludes: [] };
}

/** The first include that accepts the concept when no exclude does. */
export function memberRule(definition: ValueSetDefinition, concept: ConceptRecord): MemberRule | undefined {
  if (definition.excludes.some((rule) => rule.accepts(concept))) return undefined;
  return definition.includes.find((rule) => rule.accepts(concept));
}

interface Member {
  rule: MemberRule;
  concept: ConceptRecord;
}

/** Every member, collected from the rules' sources (see the header's limits). */
function collectMembers(definition: ValueSetDefinition): Member[] {
  const seen = new Set<string>();
  const members: Member[] = [];
  let scanned = 0;
  for (const rule of definition.includes) {
    for (let offset = 0; ; offset += SCAN_BATCH) {
      const batch = rule.source.page(offset, SCAN_BATCH);
      scanned += batch.length;
      if (scanned > MAX_CANDIDATE_SCAN) throw tooCostly(`more than ${MAX_CANDIDATE_SCAN} candidate`);
      for (const concept of batch) {
        const key = `${rule.system.canonical}|${concept.concept_id}`;
        if (seen.has(key) || !rule.accepts(concept) || definition.excludes.some((x) => x.accepts(concept))) continue;
        seen.add(key);
        members.push({ rule, concept });
        if (members.length > MAX_COLLECTED_MEMBERS) throw tooCostly(`more than ${MAX_COLLECTED_MEMBERS}`);
      }
      if (batch.length < SCAN_BATCH) break;
    }
  }
  return members;
}

/** The members matching a text, in keyword-search ranking order (see the header). */
function textMatches(view: ReleaseView, definition: ValueSetDefinition, text: string): Member[] {
  // One include: its own search filters (vocabulary, domain) narrow the search to candidates.
  const narrowing = definition.includes.length === 1 ? definition.includes[0]!.searchFilters : {};
  const found = searchConcepts(view, {
    query: text,
    queryRules: { parameter: 'filter' },
    filters: { ...narrowing, includeInvalid: true },
    window: { offset: 0, limit: TEXT_FILTER_WINDOW },
    countTotal: false,
  });
  return found.items.flatMap((concept) => {
    const rule = memberRule(definition, concept);
    return rule ? [{ rule, concept }] : [];
  });
}

function pageLength(total: number, request: ExpansionRequest): number {
  const available = Math.max(0, total - request.offset);
  const length = Math.min(available, request.count ?? available);
  if (length > MAX_EXPANSION_PAGE) throw tooCostly(total);
  return length;
}

export function expandValueSet(view: ReleaseView, definition: ValueSetDefinition, request: ExpansionRequest): Expansion {
  if (request.offset < 0) throw validationError(`Parameter 'offset' must be 0 or more, not ${request.offset}.`, { parameter: 'offset' });
  if (request.count !== undefined && request.count < 0) throw validationError(`Parameter 'count' must be 0 or more, not ${request.count}.`, { parameter: 'count' });
  const text = request.filter?.trim();
  const [only] = definition.includes;
  let total: number;
  let page: Member[];
  if (!text && only && definition.includes.length === 1 && definition.excludes.length === 0 && only.exact) {
    total = only.source.total();
    page = only.source.page(request.offset, pageLength(total, request)).map((concept) => ({ rule: only, concept }));
  } else {
    const members = text ? textMatches(view, definition, text) : collectMembers(definition);
    total = members.length;
    page = members.slice(request.offset, request.offset + pageLength(total, request));
  }
  const synonyms = request.includeDesignations && page.length ? view.store.search.synonymsOf(page.map((m) => m.concept.concept_id)) : undefined;
  return {
    total,
    offset: request.offset,
    members: page.map(({ rule, concept }) => ({
      system: rule.system.canonical,
      code: codeOfConcept(rule.system, concept),
      concept,
      ...(synonyms ? { designations: synonyms.get(concept.concept_id) ?? [] } : {}),
    })),
    systems: [...new Set(definition.includes.map((rule) => rule.system.canonical))],
  };
}
