/**
 * ValueSet search by `url` (E12): the implicit ValueSet a URL names in this release, as at most one metadata
 * entry; anything else finds nothing (total 0, never an error).
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { conceptOfCode, OMOP_CODE_SYSTEM_NAME, terminologySystem } from './code-system-concept.js';
import { parseImplicitValueSetUrl } from './implicit-value-set-url.js';

/** An implicit ValueSet that exists in the release. */
export interface ImplicitValueSet {
  /** The URL as the client meant it (decoded). */
  url: string;
  /** The code system's canonical URI. */
  system: string;
  /** What the code system holds, in words: 'OMOP Concepts', or the names of the release's vocabularies. */
  codeSystemName: string;
  /** For `isa/{code}`: the concept whose descendants (and itself) are the members. */
  root?: ConceptRecord;
}

/** The ValueSets the `url` search value names: none or one (see the header). */
export function searchValueSets(view: ReleaseView, url: string | undefined): ImplicitValueSet[] {
  const implicit = url === undefined ? undefined : parseImplicitValueSetUrl(url);
  if (!implicit) return [];
  const system = terminologySystem(implicit.system);
  let codeSystemName: string;
  if (system?.kind === 'omop-concept-id') {
    codeSystemName = OMOP_CODE_SYSTEM_NAME;
  } else if (system?.kind === 'vocabulary') {
    const held = system.vocabularyIds.flatMap((id) => {
      const vocabulary = view.store.metadata.vocabulary(id);
      return vocabulary && vocabulary.concept_count > 0 && view.canSee(id) ? [vocabulary.vocabulary_name] : [];
    });
    if (held.length === 0) return [];
    codeSystemName = held.join(' and ');
  } else {
    return [];
  }
  const found: ImplicitValueSet = { url: implicit.url, system: system.canonical, codeSystemName };
  if (implicit.kind === 'isa') {
    const root = conceptOfCode(view.store, system, implicit.code, 'normalised');
    if (!root || !view.canSee(root.vocabulary_id)) return [];
    found.root = root;
  }
  return [found];
}
