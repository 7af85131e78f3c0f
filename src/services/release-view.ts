/**
 * The request-scoped view of one release: its store, the caller's licence rules and its label, built once per request
 * by the gate. Services read concepts through it, so a restricted concept is never returned and an explicit request for
 * one is the documented 403 (docs/licences.md); adapters get only its metadata members and pass it to services, and
 * test/architecture/layers.test.ts fails on any `.store` read under src/http or src/cli outside the gate.
 */
import { LicenceRules } from '../licences/licence-rules.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import type { ReleaseManifest } from '../store/release-manifest.js';
import { codeSystemVersionOf, type OpenRelease } from '../store/release-registry.js';
import type { ConceptRecord, VocabularyRecord } from '../store/records.js';
import type { ReleaseStore } from '../store/release-store.js';
import { notFound, ServiceError } from './errors.js';

function isOpenRelease(release: OpenRelease | ReleaseStore): release is OpenRelease {
  return 'store' in release && 'build' in release;
}

/** The 403 of an explicit request for a vocabulary (or a concept of one) the caller may not see. */
export function licenceRefusal(licences: LicenceRules, vocabularyId: string): ServiceError {
  return new ServiceError(403, 'vocabulary_restricted', licences.restrictionMessage(vocabularyId), { vocabulary_id: vocabularyId });
}

export class ReleaseView {
  constructor(
    /** For services only: adapters (src/http, src/cli) never read it (test/architecture/layers.test.ts). */
    readonly store: ReleaseStore,
    readonly licences: LicenceRules,
    /** The release label the gate selected (the store's manifest label). */
    readonly label: string = store.manifest.label,
    /** Where the release's build lives (its vectors, a worker thread opening the same build); undefined for a bare store. */
    readonly build?: ReleaseBuild,
  ) {}

  /** A view of the same release for the caller with this CPT4 validation date (tests, workers). */
  static of(store: ReleaseStore, cpt4ValidatedUntil: string | null, label?: string): ReleaseView {
    return new ReleaseView(store, new LicenceRules(cpt4ValidatedUntil), label);
  }

  /** A registry's release seen with these licence rules (the gate, the CLI). */
  static ofRelease(release: OpenRelease, licences: LicenceRules): ReleaseView {
    return new ReleaseView(release.store, licences, release.label, release.build);
  }

  /** The same caller on another release (diffs, batch entries with their own release): a registry release, or a bare store. */
  onRelease(release: OpenRelease | ReleaseStore, label?: string): ReleaseView {
    if (isOpenRelease(release)) return ReleaseView.ofRelease(release, this.licences);
    return new ReleaseView(release, this.licences, label ?? release.manifest.label);
  }

  /** The release's manifest (label, build id, release and load dates): metadata, not concept content. */
  get manifest(): ReleaseManifest {
    return this.store.manifest;
  }

  /** The build the view reads (the manifest's build_id). */
  get buildId(): string {
    return this.store.manifest.build_id;
  }

  /** The OMOP code system's version of this release (its release date as YYYYMMDD, else its label). */
  get codeSystemVersion(): string {
    return codeSystemVersionOf(this.store);
  }

  canSee(vocabularyId: string): boolean {
    return this.licences.canSee(vocabularyId);
  }

  /** Vocabulary ids the caller may not see: the `hiddenVocabularyIds` every store query takes. */
  hiddenVocabularyIds(): string[] {
    return this.licences.hiddenVocabularyIds();
  }

  restrictionMessage(vocabularyId: string): string {
    return this.licences.restrictionMessage(vocabularyId);
  }

  /** Throws 403 vocabulary_restricted when the caller may not see this vocabulary (an explicit request for it). */
  assertVisible(vocabularyId: string): void {
    if (!this.canSee(vocabularyId)) throw licenceRefusal(this.licences, vocabularyId);
  }

  /**
   * Throws 403 vocabulary_restricted for the first of these vocabularies the caller may not see: a
   * filter that names a vocabulary is an explicit request for it, never a silent empty answer.
   */
  assertVisibleAll(vocabularyIds: readonly string[] | undefined): void {
    for (const vocabularyId of vocabularyIds ?? []) this.assertVisible(vocabularyId);
  }

  /** Keeps only items whose vocabulary the caller may see. */
  visible<T extends { vocabulary_id: string }>(items: readonly T[]): T[] {
    return this.licences.filter(items);
  }

  /** The vocabularies of the release the caller may see, in the store's order. */
  vocabularies(): VocabularyRecord[] {
    return this.visible(this.store.metadata.vocabularies());
  }

  /** The concept with this id if it exists and the caller may see it; undefined otherwise (a concept found by a walk or a search). */
  concept(conceptId: number): ConceptRecord | undefined {
    const concept = this.store.concepts.byId(conceptId);
    return concept && this.canSee(concept.vocabulary_id) ? concept : undefined;
  }

  /** The visible concepts among these ids, in the store's order (restricted ones left out). */
  concepts(conceptIds: readonly number[]): ConceptRecord[] {
    return this.visible(this.store.concepts.byIds(conceptIds));
  }

  /** The concept of this vocabulary and code if the caller may see it; undefined otherwise. */
  conceptByCode(vocabularyId: string, conceptCode: string): ConceptRecord | undefined {
    if (!this.canSee(vocabularyId)) return undefined;
    return this.store.concepts.byCode(vocabularyId, conceptCode);
  }

  /** An explicitly requested concept: 404 `not_found` when the release has none, 403 when the caller may not see it. */
  requireConcept(conceptId: number): ConceptRecord {
    const concept = this.store.concepts.byId(conceptId);
    if (!concept) throw notFound(`Concept ${conceptId} was not found in release ${this.label}.`, 'not_found', { concept_id: conceptId });
    this.assertVisible(concept.vocabulary_id);
    return concept;
  }
}
