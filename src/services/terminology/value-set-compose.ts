/**
 * What a ValueSet is made of for $expand and $validate-code: include and exclude rules (from an implicit URL, an
 * OMOP domain ValueSet or an inline compose), each accepting a concept by primary-key reads and naming a counted
 * source.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { HierarchyFilter } from '../../store/hierarchy-store.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ReleaseView } from '../release-view.js';
import { listDomainConcepts } from '../domains/domain-concepts.js';
import { notFound, validationError } from '../errors.js';
import { OMOP_CONCEPT_SYSTEM } from '../fhir/code-system-uris.js';
import { codeOfConcept, conceptCodeSystem, conceptOfCode, type ConceptCodeSystem } from './code-system-concept.js';
import type { SearchFilters } from '../search/search-filters.js';
import { parseImplicitValueSetUrl } from './implicit-value-set-url.js';
import { expressionOfCompose, MAPS_TO_PROPERTY, statesConceptSet } from '../concept-sets/concept-set-value-set.js';
import type { ConceptSetExpression } from '../concept-sets/expression-formats.js';

/** The prefix of the OMOP domain ValueSets (fhir-and-omop-notes.md §3.1). */
export const OMOP_DOMAIN_VALUE_SET_PREFIX = `${OMOP_CONCEPT_SYSTEM}/ValueSet/`;

type Json = Record<string, unknown>;

/** Candidates of a rule in a stable order, with their exact number. */
export interface MemberSource {
  total(): number;
  page(offset: number, limit: number): ConceptRecord[];
}

export interface MemberRule {
  system: ConceptCodeSystem;
  /** Whether a concept meets every condition of the rule (system, list, filters, licence, activeOnly). */
  accepts(concept: ConceptRecord): boolean;
  /** Lists candidates: every member, and when `exact` is false also concepts `accepts` rejects. */
  source: MemberSource;
  exact: boolean;
  /** Keyword-search filters every member meets (narrows a text filter's search). */
  searchFilters: SearchFilters;
}

export interface ValueSetDefinition {
  /** The ValueSet's canonical URL (absent for an inline ValueSet without one). */
  url?: string;
  version?: string;
  /** Whether the definition came from a URL this server knows (so a `next` link can name it). */
  named: boolean;
  /** Whether it was read from a ValueSet resource sent with the request (inline or as a tx-resource). */
  sent: boolean;
  includes: MemberRule[];
  excludes: MemberRule[];
  /**
   * The concept-set expression the compose states, when it has the shape of one (concept-set-value-set.ts): its
   * members are the resolver's answer, filled in by conceptSetMembers (value-set-expansion.ts) before use.
   */
  conceptSet?: ConceptSetExpression;
}

export interface DefinitionOptions {
  /** Leave out inactive concepts (invalid_reason set). */
  activeOnly: boolean;
}

/** No limit on the levels of separation of a descendant. */
const ALL_LEVELS = 1_000_000;

/** The longest regex accepted in a filter (they run on every candidate). */
export const MAX_REGEX_LENGTH = 200;
/** The most repetitions (`*`, `+`, `{n,m}`) a filter regex may have: backtracking grows as the length of a code to this power. */
export const MAX_REGEX_REPETITIONS = 3;

/**
 * Why a filter regex could backtrack without bound (undefined when it cannot): it runs on up to
 * MAX_CANDIDATE_SCAN candidates on the event loop, so a quantified group (`(a|a)*`, `(a*)*`), a
 * backreference or more than MAX_REGEX_REPETITIONS repetitions is refused.
 */
function unboundedBacktracking(pattern: string): string | undefined {
  let repetitions = 0;
  let inClass = false;
  let afterGroup = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const quantifier = !inClass && (ch === '*' || ch === '+' || ch === '{' || (ch === '?' && afterGroup));
    if (quantifier && afterGroup) return 'a quantified group';
    if (quantifier && ch !== '?') repetitions++;
    afterGroup = !inClass && ch === ')';
    if (ch === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return 'a backreference';
      i++;
    } else if (inClass) {
      inClass = ch !== ']';
    } else if (ch === '[') {
      inClass = true;
    }
  }
  return repetitions > MAX_REGEX_REPETITIONS ? `more than ${MAX_REGEX_REPETITIONS} repetitions (*, +, {n,m})` : undefined;
}

// ---- sources -----------------------------------------------------------------------------------

function listSource(concepts: readonly ConceptRecord[]): MemberSource {
  return { total: () => concepts.length, page: (offset, limit) => concepts.slice(offset, offset + limit) };
}

/** Sources one after the other (each total read once). */
function chainedSources(sources: readonly MemberSource[]): MemberSource {
  let totals: number[] | undefined;
  const sizes = () => (totals ??= sources.map((s) => s.total()));
  return {
    total: () => sizes().reduce((a, b) => a + b, 0),
    page: (offset, limit) => {
      const out: ConceptRecord[] = [];
      let skip = offset;
      sources.forEach((source, i) => {
        const size = sizes()[i]!;
        if (out.length >= limit) return;
        if (skip >= size) {
          skip -= size;
          return;
        }
        out.push(...source.page(skip, limit - out.length));
        skip = 0;
      });
      return out;
    },
  };
}

/** The root (when it counts) then its descendants, nearest first: CONCEPT_ANCESTOR, counted and paged by the store. */
function descendantSource(store: ReleaseStore, root: ConceptRecord, includeRoot: boolean, filter: HierarchyFilter): MemberSource {
  const self = includeRoot ? [root] : [];
  const descendants: MemberSource = {
    total: () => store.hierarchy.descendantTallies(root.concept_id, filter).reduce((sum, t) => sum + t.count, 0),
    page: (offset, limit) => (limit <= 0 ? [] : store.hierarchy.descendants(root.concept_id, filter, offset, limit).map((row) => row.concept)),
  };
  return chainedSources([listSource(self), descendants]);
}

/** A vocabulary's concepts by concept_id. */
function vocabularySource(store: ReleaseStore, vocabularyId: string, options: DefinitionOptions): MemberSource {
  const browse = (offset: number, limit: number) =>
    store.search.browseVocabulary({ vocabularyId, includeInvalid: !options.activeOnly, sortBy: 'concept_id', descending: false, offset, limit });
  return { total: () => browse(0, 0).total, page: (offset, limit) => (limit <= 0 ? [] : browse(offset, limit).concepts) };
}

function systemVocabularies(view: ReleaseView, system: ConceptCodeSystem): string[] {
  const ids = system.kind === 'vocabulary' ? system.vocabularyIds : view.store.metadata.vocabularies().map((v) => v.vocabulary_id);
  return ids.filter((id) => view.canSee(id) && (view.store.metadata.vocabulary(id)?.concept_count ?? 0) > 0);
}

function domainSource(view: ReleaseView, domainId: string, vocabularyIds: readonly string[] | undefined, standardOnly: boolean, options: DefinitionOptions): MemberSource {
  const read = (offset: number, limit: number) =>
    listDomainConcepts(view, { domainId, ...(vocabularyIds ? { vocabularyIds } : {}), standardOnly, includeInvalid: !options.activeOnly, offset, limit });
  return { total: () => read(0, 0).total, page: (offset, limit) => (limit <= 0 ? [] : read(offset, limit).items) };
}

// ---- rules -------------------------------------------------------------------------------------

interface RuleParts {
  system: ConceptCodeSystem;
  conditions: Array<(c: ConceptRecord) => boolean>;
  /** A source narrower than the whole system, and whether it alone is the rule. */
  narrowed?: { source: MemberSource; exact: boolean };
}

function inSystem(system: ConceptCodeSystem, concept: ConceptRecord): boolean {
  return system.kind === 'omop-concept-id' || system.vocabularyIds.includes(concept.vocabulary_id);
}

function finishRule(view: ReleaseView, parts: RuleParts, options: DefinitionOptions): MemberRule {
  const { system, conditions } = parts;
  const accepts = (c: ConceptRecord) =>
    inSystem(system, c) && view.canSee(c.vocabulary_id) && (!options.activeOnly || c.invalid_reason === null) && conditions.every((test) => test(c));
  const vocabularyIds = systemVocabularies(view, system);
  const searchFilters: SearchFilters = system.kind === 'vocabulary' ? { vocabularyIds } : {};
  if (parts.narrowed) return { system, accepts, source: parts.narrowed.source, exact: parts.narrowed.exact && conditions.length === 1, searchFilters };
  const whole = chainedSources(vocabularyIds.map((id) => vocabularySource(view.store, id, options)));
  return { system, accepts, source: whole, exact: conditions.length === 0, searchFilters };
}

/** The rule of an implicit or OMOP domain URL; undefined when the URL names no ValueSet of this release. */
function ruleOfUrl(view: ReleaseView, url: string, options: DefinitionOptions): MemberRule | undefined {
  if (url.startsWith(OMOP_DOMAIN_VALUE_SET_PREFIX)) {
    const domainId = url.slice(OMOP_DOMAIN_VALUE_SET_PREFIX.length);
    if (!view.store.metadata.domains().some((d) => d.domain_id === domainId)) return undefined;
    const system: ConceptCodeSystem = { kind: 'omop-concept-id', canonical: OMOP_CONCEPT_SYSTEM };
    const isMember = (c: ConceptRecord) => c.domain_id === domainId && c.standard_concept === 'S';
    return {
      system,
      accepts: (c) => isMember(c) && view.canSee(c.vocabulary_id) && c.invalid_reason === null,
      source: domainSource(view, domainId, undefined, true, { activeOnly: true }),
      exact: true,
      searchFilters: { domainIds: [domainId], standardConcepts: ['S'] },
    };
  }
  const implicit = parseImplicitValueSetUrl(url);
  if (!implicit) return undefined;
  const system = conceptCodeSystem(implicit.system);
  if (!system) return undefined;
  if (systemVocabularies(view, system).length === 0) return undefined;
  if (implicit.kind === 'all') return finishRule(view, { system, conditions: [] }, options);
  const root = conceptOfCode(view.store, system, implicit.code, 'normalised');
  if (!root || !view.canSee(root.vocabulary_id)) return undefined;
  return isARule(view, system, root, true, options);
}

function hierarchyFilter(view: ReleaseView, system: ConceptCodeSystem, options: DefinitionOptions): HierarchyFilter {
  return {
    maxLevels: ALL_LEVELS,
    ...(system.kind === 'vocabulary' ? { vocabularyIds: system.vocabularyIds } : {}),
    standardOnly: false,
    includeInvalid: !options.activeOnly,
    hiddenVocabularyIds: view.hiddenVocabularyIds(),
  };
}

function descendsFrom(store: ReleaseStore, root: ConceptRecord, includeRoot: boolean) {
  return (c: ConceptRecord) => (c.concept_id === root.concept_id ? includeRoot : store.hierarchy.isAncestor(root.concept_id, c.concept_id));
}

function isARule(view: ReleaseView, system: ConceptCodeSystem, root: ConceptRecord, includeRoot: boolean, options: DefinitionOptions): MemberRule {
  const rootCounts = includeRoot && (!options.activeOnly || root.invalid_reason === null);
  const source = descendantSource(view.store, root, rootCounts, hierarchyFilter(view, system, options));
  return finishRule(view, { system, conditions: [descendsFrom(view.store, root, includeRoot)], narrowed: { source, exact: true } }, options);
}

// ---- compose -----------------------------------------------------------------------------------

const PROPERTY_NAMES: Record<string, keyof ConceptRecord | 'concept'> = {
  concept: 'concept',
  code: 'concept',
  'domain-id': 'domain_id',
  domain: 'domain_id',
  'vocabulary-id': 'vocabulary_id',
  vocabulary: 'vocabulary_id',
  'concept-class-id': 'concept_class_id',
  'concept-class': 'concept_class_id',
  'standard-concept': 'standard_concept',
};

export const FILTER_OPERATORS = ['=', 'is-a', 'descendent-of', 'in', 'regex'] as const;

function asObject(value: unknown, path: string): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw validationError(`${path} must be an object.`, { parameter: 'valueSet', element: path });
  return value as Json;
}

function asArray(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw validationError(`${path} must be an array.`, { parameter: 'valueSet', element: path });
  return value;
}

function asString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw validationError(`${path} must be a non-empty string.`, { parameter: 'valueSet', element: path });
  return value;
}

/** A concept's value of a filter property, as FHIR writes it (the code for `concept`; standard_concept null as ''). */
function propertyValue(system: ConceptCodeSystem, concept: ConceptRecord, property: keyof ConceptRecord | 'concept'): string {
  if (property === 'concept') return codeOfConcept(system, concept);
  return String(concept[property] ?? '');
}

function filterConditions(view: ReleaseView, parts: RuleParts, filter: Json, path: string, options: DefinitionOptions): void {
  const { system } = parts;
  const propertyName = asString(filter.property, `${path}.property`);
  const op = asString(filter.op, `${path}.op`);
  const value = asString(filter.value, `${path}.value`);
  // Own keys only: a name such as `constructor` is not a property (it would find Object.prototype's member).
  const property = Object.hasOwn(PROPERTY_NAMES, propertyName) ? PROPERTY_NAMES[propertyName] : undefined;
  if (propertyName === MAPS_TO_PROPERTY) {
    throw validationError(
      `${path}: the property '${MAPS_TO_PROPERTY}' (the sources mapped into a concept, op = or is-a) stands alone in an include or exclude on ${OMOP_CONCEPT_SYSTEM}, whose other entries are concept lists or a single 'concept is-a' filter (a concept set, docs/concept-sets.md).`,
      { parameter: 'valueSet', element: `${path}.property` },
    );
  }
  if (!property) {
    throw validationError(`${path}.property '${propertyName}' is not a filter property of OMOP concepts; use one of ${Object.keys(PROPERTY_NAMES).join(', ')}.`, { parameter: 'valueSet', element: `${path}.property` });
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw validationError(`${path}.op '${op}' is not supported; use one of ${FILTER_OPERATORS.join(', ')}.`, { parameter: 'valueSet', element: `${path}.op` });
  }
  const rootOf = (code: string) => {
    const root = conceptOfCode(view.store, system, code, 'normalised');
    if (!root) throw validationError(`${path}.value '${code}' is not a code of ${system.canonical} in this release.`, { parameter: 'valueSet', element: `${path}.value` });
    view.assertVisible(root.vocabulary_id);
    return root;
  };
  if (op === 'is-a' || op === 'descendent-of') {
    if (property !== 'concept') throw validationError(`${path}: op '${op}' applies to the property 'concept' only.`, { parameter: 'valueSet', element: `${path}.op` });
    const root = rootOf(value);
    const includeRoot = op === 'is-a';
    parts.conditions.push(descendsFrom(view.store, root, includeRoot));
    if (!parts.narrowed) {
      const rootCounts = includeRoot && (!options.activeOnly || root.invalid_reason === null);
      parts.narrowed = { source: descendantSource(view.store, root, rootCounts, hierarchyFilter(view, system, options)), exact: true };
    }
    return;
  }
  if (op === 'regex') {
    if (value.length > MAX_REGEX_LENGTH) throw validationError(`${path}.value: a regex may be at most ${MAX_REGEX_LENGTH} characters.`, { parameter: 'valueSet', element: `${path}.value` });
    const risk = unboundedBacktracking(value);
    if (risk) throw validationError(`${path}.value '${value}': a filter regex may not have ${risk}.`, { parameter: 'valueSet', element: `${path}.value` });
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${value})$`, 'u');
    } catch {
      throw validationError(`${path}.value '${value}' is not a valid regular expression.`, { parameter: 'valueSet', element: `${path}.value` });
    }
    // Column properties take few distinct values: each is tested once.
    const verdicts = new Map<string, boolean>();
    parts.conditions.push((c) => {
      const text = propertyValue(system, c, property);
      let verdict = verdicts.get(text);
      if (verdict === undefined) {
        verdict = pattern.test(text);
        if (property !== 'concept') verdicts.set(text, verdict);
      }
      return verdict;
    });
    return;
  }
  const values = op === 'in' ? value.split(',').map((v) => v.trim()).filter((v) => v !== '') : [value];
  // Naming a vocabulary is an explicit request for it: a restricted one is the 403, never an empty expansion.
  if (property === 'vocabulary_id') view.assertVisibleAll(values);
  const wanted = new Set(values);
  parts.conditions.push((c) => wanted.has(propertyValue(system, c, property)));
  if (parts.narrowed) return;
  if (property === 'concept') {
    const concepts = values.flatMap((code) => conceptOfCode(view.store, system, code, 'normalised') ?? []);
    parts.narrowed = { source: listSource(concepts), exact: false };
  } else if (property === 'domain_id') {
    const vocabularyIds = system.kind === 'vocabulary' ? systemVocabularies(view, system) : undefined;
    parts.narrowed = { source: chainedSources(values.map((d) => domainSource(view, d, vocabularyIds, false, options))), exact: false };
  } else if (property === 'vocabulary_id') {
    const held = new Set(systemVocabularies(view, system));
    parts.narrowed = { source: chainedSources(values.filter((v) => held.has(v)).map((v) => vocabularySource(view.store, v, options))), exact: false };
  }
}

function composeRule(view: ReleaseView, entry: Json, path: string, options: DefinitionOptions): MemberRule {
  if (entry.valueSet !== undefined) throw validationError(`${path}.valueSet (a ValueSet imported into another) is not supported.`, { parameter: 'valueSet', element: `${path}.valueSet` });
  const systemUri = asString(entry.system, `${path}.system`);
  const found = conceptCodeSystem(systemUri);
  if (!found) throw notFound(`A definition for CodeSystem '${systemUri}' could not be found, so the value set cannot be expanded`, 'not_found', { system: systemUri });
  if (found.kind === 'vocabulary') view.assertVisible(found.vocabularyIds[0]!);
  const parts: RuleParts = { system: found, conditions: [] };
  const listed = asArray(entry.concept, `${path}.concept`);
  if (listed.length) {
    const codes = listed.map((c, i) => asString(asObject(c, `${path}.concept[${i}]`).code, `${path}.concept[${i}].code`));
    const ids = new Set<number>();
    const concepts = codes.flatMap((code) => {
      const concept = conceptOfCode(view.store, found, code, 'normalised');
      if (!concept || ids.has(concept.concept_id)) return [];
      ids.add(concept.concept_id);
      return [concept];
    });
    parts.conditions.push((c) => ids.has(c.concept_id));
    parts.narrowed = { source: listSource(concepts), exact: false };
  }
  asArray(entry.filter, `${path}.filter`).forEach((f, i) => filterConditions(view, parts, asObject(f, `${path}.filter[${i}]`), `${path}.filter[${i}]`, options));
  return finishRule(view, parts, options);
}

/** The definition of a ValueSet resource sent inline (400 for what this server cannot read). */
export function definitionOfResource(view: ReleaseView, resource: Json, options: DefinitionOptions): ValueSetDefinition {
  if (resource.resourceType !== 'ValueSet') throw validationError(`The ValueSet parameter must be a ValueSet resource, not '${String(resource.resourceType)}'.`, { parameter: 'valueSet' });
  const compose = asObject(resource.compose, 'ValueSet.compose');
  const conceptSet = statesConceptSet(resource) ? expressionOfCompose(compose) : undefined;
  if (conceptSet) {
    return {
      ...(typeof resource.url === 'string' ? { url: resource.url } : {}),
      ...(typeof resource.version === 'string' ? { version: resource.version } : {}),
      named: false,
      sent: true,
      includes: [],
      excludes: [],
      conceptSet,
    };
  }
  const includes = asArray(compose.include, 'ValueSet.compose.include').map((e, i) => composeRule(view, asObject(e, `ValueSet.compose.include[${i}]`), `ValueSet.compose.include[${i}]`, options));
  if (includes.length === 0) throw validationError('ValueSet.compose.include must have at least one entry.', { parameter: 'valueSet', element: 'ValueSet.compose.include' });
  const excludes = asArray(compose.exclude, 'ValueSet.compose.exclude').map((e, i) => composeRule(view, asObject(e, `ValueSet.compose.exclude[${i}]`), `ValueSet.compose.exclude[${i}]`, options));
  return {
    ...(typeof resource.url === 'string' ? { url: resource.url } : {}),
    ...(typeof resource.version === 'string' ? { version: resource.version } : {}),
    named: false,
    sent: true,
    includes,
    excludes,
  };
}

/** The definition a URL names: an implicit or OMOP domain ValueSet, or one of the ValueSets sent along (`tx-resource`). 404 otherwise. */
export function definitionOfUrl(view: ReleaseView, url: string, sent: readonly Json[], options: DefinitionOptions): ValueSetDefinition {
  const [canonical = url, version] = url.split('|');
  const resource = sent.find((r) => r.resourceType === 'ValueSet' && r.url === canonical);
  if (resource) return definitionOfResource(view, resource, options);
  const rule = ruleOfUrl(view, canonical, options);
  if (!rule) throw notFound(`A definition for the value Set '${url}' could not be found`, 'not_found', { url });
  return { url: canonical, ...(version ? { version } : {}), named: true, sent: false, includes: [rule], excludes: [] };
}
