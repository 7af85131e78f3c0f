/**
 * A reviewer's changes to a term's review (status, equivalence, target concepts, comment, assigned reviewer), checked
 * field by field, and the undo of an automatic approval. Pure: the caller stores the returned review.
 */
import { ServiceError, validationError } from '../errors.js';
import type { ReleaseView } from '../release-view.js';
import { EQUIVALENCES, MAPPING_STATUSES, type Equivalence, type MappingStatus, type TermReview } from './mapping-types.js';

/** Most target concepts one term may have (Usagi allows several: a code meaning two things). */
export const MAX_TARGETS_PER_TERM = 10;
export const MAX_COMMENT_CHARS = 4000;
export const MAX_REVIEWER_CHARS = 200;

/** What a reviewer may change; absent fields stay as they are. */
export interface ReviewChange {
  status?: MappingStatus;
  equivalence?: Equivalence;
  concept_ids?: number[];
  comment?: string;
  assigned_reviewer?: string;
  /** Who makes the change (required when the status changes, unless the caller gives a default). */
  reviewer?: string;
}

const CHANGE_FIELDS = ['status', 'equivalence', 'concept_ids', 'comment', 'assigned_reviewer', 'reviewer'] as const;

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw validationError(`'${field}' must be a string.`, { parameter: field });
  if (value.length > max) throw validationError(`'${field}' is longer than ${max} characters.`, { parameter: field });
  return value;
}

/** A change from a caller's JSON: unknown fields and wrong types are 400s naming the field. */
export function checkReviewChange(input: unknown): ReviewChange {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw validationError('The review change must be an object.', { parameter: 'body' });
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!(CHANGE_FIELDS as readonly string[]).includes(key)) throw validationError(`Unknown field '${key}' (expected one of ${CHANGE_FIELDS.join(', ')}).`, { parameter: key });
  }
  const change: ReviewChange = {};
  if (raw.status !== undefined) {
    if (!(MAPPING_STATUSES as readonly unknown[]).includes(raw.status)) throw validationError(`'status' must be one of ${MAPPING_STATUSES.join(', ')}.`, { parameter: 'status' });
    change.status = raw.status as MappingStatus;
  }
  if (raw.equivalence !== undefined) {
    if (!(EQUIVALENCES as readonly unknown[]).includes(raw.equivalence)) throw validationError(`'equivalence' must be one of ${EQUIVALENCES.join(', ')}.`, { parameter: 'equivalence' });
    change.equivalence = raw.equivalence as Equivalence;
  }
  if (raw.concept_ids !== undefined) {
    const ids = raw.concept_ids;
    if (!Array.isArray(ids)) throw validationError(`'concept_ids' must be a list of concept ids.`, { parameter: 'concept_ids' });
    if (ids.length > MAX_TARGETS_PER_TERM) throw validationError(`'concept_ids' names ${ids.length} concepts; at most ${MAX_TARGETS_PER_TERM}.`, { parameter: 'concept_ids' });
    ids.forEach((id, i) => {
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw validationError(`'concept_ids[${i}]' must be a positive whole number.`, { parameter: `concept_ids[${i}]` });
    });
    change.concept_ids = [...new Set(ids as number[])];
  }
  if (raw.comment !== undefined) change.comment = text(raw.comment, 'comment', MAX_COMMENT_CHARS);
  if (raw.assigned_reviewer !== undefined) change.assigned_reviewer = text(raw.assigned_reviewer, 'assigned_reviewer', MAX_REVIEWER_CHARS).trim();
  if (raw.reviewer !== undefined) change.reviewer = text(raw.reviewer, 'reviewer', MAX_REVIEWER_CHARS).trim();
  return change;
}

/** Each target must be a valid concept the caller may see: 400 naming the item when unknown or deprecated, 403 when restricted. */
function checkTargets(view: ReleaseView, ids: readonly number[]): void {
  ids.forEach((id, i) => {
    const field = `concept_ids[${i}]`;
    let concept;
    try {
      concept = view.requireConcept(id);
    } catch (err) {
      if (err instanceof ServiceError && err.status === 404) {
        throw validationError(`'${field}': concept ${id} is not in release ${view.label}.`, { parameter: field, concept_id: id });
      }
      throw err;
    }
    if (concept.invalid_reason) {
      throw validationError(`'${field}': concept ${id} is not valid in release ${view.label} (invalid_reason ${concept.invalid_reason}).`, { parameter: field, concept_id: id });
    }
  });
}

/**
 * The review after a reviewer's change. Setting a status records who and when (unchecked clears both, as Usagi);
 * changing the targets of an approved term without restating the status returns it to unchecked (the approval was
 * for other targets).
 */
export function applyReviewChange(view: ReleaseView, current: TermReview, input: ReviewChange | unknown, options: { reviewer?: string; now?: Date } = {}): TermReview {
  const change = checkReviewChange(input);
  const next: TermReview = { ...current, concept_ids: [...current.concept_ids] };
  const now = (options.now ?? new Date()).toISOString();
  if (change.concept_ids) {
    checkTargets(view, change.concept_ids);
    const changed = change.concept_ids.join(',') !== current.concept_ids.join(',');
    next.concept_ids = change.concept_ids;
    if (changed && change.status === undefined && current.status === 'approved') {
      next.status = 'unchecked';
      next.status_set_by = null;
      next.status_set_at = null;
    }
  }
  if (change.equivalence) next.equivalence = change.equivalence;
  if (change.comment !== undefined) next.comment = change.comment;
  if (change.assigned_reviewer !== undefined) next.assigned_reviewer = change.assigned_reviewer;
  if (change.status) {
    next.status = change.status;
    if (change.status === 'unchecked') {
      next.status_set_by = null;
      next.status_set_at = null;
    } else {
      const reviewer = change.reviewer || options.reviewer;
      if (!reviewer) throw validationError(`'reviewer' is required to set the status (who reviewed the term).`, { parameter: 'reviewer' });
      next.status_set_by = { kind: 'reviewer', reviewer };
      next.status_set_at = now;
    }
  }
  return next;
}

/** Whether a rule (not a person) approved the term. */
export function approvedByRule(review: TermReview): boolean {
  return review.status === 'approved' && review.status_set_by?.kind === 'rule';
}

/** Undoes an automatic approval: back to unchecked, targets kept; a 400 when no rule approved the term. */
export function undoAutoApproval(review: TermReview): TermReview {
  if (!approvedByRule(review)) {
    throw validationError('Only an automatic approval can be undone; this term was not approved by a rule.', { parameter: 'status', status: review.status });
  }
  return { ...review, status: 'unchecked', status_set_by: null, status_set_at: null };
}
