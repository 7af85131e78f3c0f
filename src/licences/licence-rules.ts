/**
 * The licence rules of spec Authentication 5 (reading note 9) for one API key: CPT4 only for keys whose
 * annual validation has not lapsed; GPI and MedDRA never. Pure rules, below the store and the importer;
 * the request's release view (src/services/release-view.ts) applies them to every concept read.
 */

export const NEVER_SERVED_VOCABULARIES = ['GPI', 'MedDRA'] as const;
export const VALIDATION_REQUIRED_VOCABULARIES = ['CPT4'] as const;

export class LicenceRules {
  private readonly hidden: Set<string>;

  constructor(
    /** Last day (YYYY-MM-DD) the key's CPT4 validation is valid for, or null. */
    readonly cpt4ValidatedUntil: string | null,
    /** The day (YYYY-MM-DD) the rules were made for (a worker thread remakes the same rules from these two fields). */
    readonly today: string = new Date().toISOString().slice(0, 10),
  ) {
    this.hidden = new Set<string>(NEVER_SERVED_VOCABULARIES);
    if (!cpt4ValidatedUntil || cpt4ValidatedUntil < today) {
      for (const v of VALIDATION_REQUIRED_VOCABULARIES) this.hidden.add(v);
    }
  }

  canSee(vocabularyId: string): boolean {
    return !this.hidden.has(vocabularyId);
  }

  /** Vocabulary ids this caller may not see (the `hiddenVocabularyIds` of store queries). */
  hiddenVocabularyIds(): string[] {
    return [...this.hidden];
  }

  /** Why this caller may not see this vocabulary (the message of every licence refusal, whole or per item). */
  restrictionMessage(vocabularyId: string): string {
    return (NEVER_SERVED_VOCABULARIES as readonly string[]).includes(vocabularyId)
      ? `${vocabularyId} content is not available on this server (licence restriction).`
      : `${vocabularyId} content requires an API key whose owner has completed the annual ${vocabularyId} licence validation; this key's validation is missing or has expired.`;
  }

  /** Keeps only items whose vocabulary the caller may see. */
  filter<T extends { vocabulary_id: string }>(items: readonly T[]): T[] {
    return items.filter((item) => this.canSee(item.vocabulary_id));
  }
}
