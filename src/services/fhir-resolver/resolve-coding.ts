/**
 * Resolves one FHIR coding (POST /v1/fhir/resolve, E7) to its standard concept and CDM table by trying in turn the
 * administrative maps, a structured lookup of the normalised code, and the display fallback, under the licence
 * rules.
 */
import { notFound, ServiceError, validationError } from '../errors.js';
import type { ConceptRecord } from '../../store/records.js';
import { matchSystem, nearestKnownSystem, ICD9_PROCEDURE_VOCABULARY } from '../fhir/code-system-uris.js';
import { briefConcept } from '../concepts/concept-brief.js';
import { expectedDomains } from './cdm-target.js';
import type { DisplayMatch } from './display-resolution.js';
import { resolveAdministrative } from './administrative-resolution.js';
import { alignmentOf, finishResolution, sentinelResolution, tableOf, unknownSource } from './resolution-assembly.js';
import type { ResolverContext } from './resolver-context.js';
import { lookUpCode, releaseVocabularyId, resolveConcept } from './vocabulary-resolution.js';
import type { CodingInput, Recommendation, Resolution, ResolveInputEcho, ResolveOptions, ResolveOutcome, ResourceType, SourceConcept } from './resolution.js';

export type { ResolverContext } from './resolver-context.js';

/** The relationship id recommendations of a semantic match carry (the runner-up display matches). */
const SEMANTIC_RECOMMENDATION = 'semantic_match';
const INPUT_HELP = 'Send system and code, vocabulary_id and code, or display alone.';

/** The coding with blank strings dropped and text trimmed. */
function cleanCoding(coding: CodingInput): CodingInput {
  const text = (v: string | undefined) => {
    const t = typeof v === 'string' ? v.trim() : undefined;
    return t ? t : undefined;
  };
  return {
    system: text(coding.system),
    code: text(coding.code),
    display: text(coding.display),
    vocabulary_id: text(coding.vocabulary_id),
    user_selected: coding.user_selected,
    concept_map_id: text(coding.concept_map_id),
  };
}

export function echoInput(coding: CodingInput, resourceType: ResourceType | undefined): ResolveInputEcho {
  const c = cleanCoding(coding);
  return {
    system: c.system ?? null,
    code: c.code ?? null,
    display: c.display ?? null,
    vocabulary_id: c.vocabulary_id ?? null,
    resource_type: resourceType ?? null,
  };
}

function missingInput(message: string): ServiceError {
  return new ServiceError(400, 'missing_input', `${message} ${INPUT_HELP}`);
}

/** Rule 3: the display fallback; undefined when nothing matches well enough. */
async function resolveByDisplay(
  ctx: ResolverContext,
  display: string,
  source: SourceConcept,
  vocabularyId: string | null,
  resourceType: ResourceType | undefined,
  options: ResolveOptions,
  why: string,
): Promise<Resolution | undefined> {
  const wanted = 1 + (options.includeRecommendations ? options.recommendationsLimit : 0);
  const found = await ctx.resolveDisplay(display, { domainIds: resourceType ? expectedDomains(resourceType) : undefined, limit: wanted });
  const [best, ...runnersUp] = found.matches;
  if (!best) return undefined;
  const how =
    found.method === 'semantic'
      ? `matched by meaning on the display text (similarity ${best.similarity_score}, matched "${best.matched_text}")`
      : `matched by keyword and word similarity on the display text (this release has no semantic vectors; run omopterm embed), score ${best.similarity_score}, matched "${best.matched_text}"`;
  const resolution: Resolution = {
    vocabulary_id: vocabularyId,
    source_concept: source,
    standard_concept: briefConcept(best.concept),
    mapping_type: 'semantic_match',
    similarity_score: best.similarity_score,
    ...tableOf(best.concept.domain_id),
    ...alignmentOf(best.concept.domain_id, resourceType),
    quality_note: `${why} The concept was ${how}; a suggestion to review, not a vocabulary mapping.`,
  };
  if (options.includeRecommendations) {
    resolution.recommendations = runnersUp.slice(0, options.recommendationsLimit).map(
      (m: DisplayMatch): Recommendation => ({ ...briefConcept(m.concept), relationship_id: SEMANTIC_RECOMMENDATION, similarity_score: m.similarity_score }),
    );
  }
  return finishResolution(ctx, resolution, options, { similarity: best.similarity_score });
}

/** Resolves one coding (see the header). Throws ServiceError for input errors, licence refusals and (on_unmapped error) not found. */
export async function resolveCoding(ctx: ResolverContext, input: CodingInput, options: ResolveOptions): Promise<ResolveOutcome> {
  const coding = cleanCoding(input);
  const resourceType = options.resourceType;
  const echo = echoInput(coding, resourceType);
  const { system, code, display } = coding;
  if ((system || coding.vocabulary_id) && !code) {
    throw missingInput(`code is required when ${system ? 'system' : 'vocabulary_id'} is given.`);
  }
  if (!system && !coding.vocabulary_id && !display) {
    throw missingInput(code ? 'code needs a system or a vocabulary_id.' : 'The coding is empty.');
  }

  let vocabularyIds: string[] = [];
  let conceptIdCode = false;
  if (system) {
    const match = matchSystem(system);
    if (!match) {
      const suggestion = nearestKnownSystem(system);
      throw new ServiceError(
        400,
        'unknown_system',
        `Unknown code system '${system}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''} Send a FHIR code-system URI the server knows, or vocabulary_id instead.`,
        suggestion ? { system, suggestion } : { system },
      );
    }
    if (match.kind === 'administrative') {
      const resolution = resolveAdministrative(ctx, match.canonical, coding, resourceType, options);
      if (resolution) return { input: echo, resolution };
    } else if (match.kind === 'omop-concept-id') {
      conceptIdCode = true;
    } else {
      if (coding.vocabulary_id && coding.vocabulary_id !== match.vocabularyId) {
        throw validationError(`system '${system}' is the ${match.vocabularyId} vocabulary but vocabulary_id is '${coding.vocabulary_id}'; send one of them.`, {
          system,
          vocabulary_id: coding.vocabulary_id,
        });
      }
      vocabularyIds = [match.vocabularyId];
      if (match.vocabularyId === 'ICD9CM') vocabularyIds.push(ICD9_PROCEDURE_VOCABULARY);
    }
  } else if (coding.vocabulary_id) {
    vocabularyIds = [releaseVocabularyId(ctx.view.store, coding.vocabulary_id)];
  }
  for (const v of vocabularyIds) ctx.view.assertVisible(v);

  let source: ConceptRecord | undefined;
  if (code && conceptIdCode) {
    source = /^\d{1,10}$/.test(code) ? ctx.view.store.concepts.byId(Number(code)) : undefined;
  } else if (code && vocabularyIds.length > 0) {
    source = lookUpCode(ctx.view.store, vocabularyIds, code);
  }
  if (source) {
    ctx.view.assertVisible(source.vocabulary_id);
    return { input: echo, resolution: resolveConcept(ctx, source, resourceType, options) };
  }

  const vocabularyId = vocabularyIds[0] ?? null;
  const where = vocabularyIds.length > 0 ? `vocabulary ${vocabularyIds.join(' or ')}` : conceptIdCode ? 'the OMOP concept ids' : `system ${system}`;
  const notFoundText = code
    ? `No concept with code '${code}' in ${where} of release ${ctx.view.label}${vocabularyId && !ctx.view.store.metadata.vocabulary(vocabularyId) ? ` (the release has no ${vocabularyId} vocabulary)` : ''}.`
    : '';
  if (display) {
    const resolution = await resolveByDisplay(
      ctx,
      display,
      unknownSource(code, display, vocabularyId),
      vocabularyId,
      resourceType,
      options,
      code ? notFoundText : 'Only a display text was given.',
    );
    if (resolution) return { input: echo, resolution };
  }
  if (options.onUnmapped === 'sentinel') {
    const why = code ? notFoundText : `No standard concept matches the display '${display}' well enough.`;
    return {
      input: echo,
      resolution: sentinelResolution(ctx, unknownSource(code, display, vocabularyId), vocabularyId, resourceType, `${why} Record concept_id 0.`, options),
    };
  }
  throw notFound(
    code
      ? `${notFoundText}${display ? ` The display '${display}' matched no standard concept well enough either.` : ''}`
      : `No standard concept matches the display '${display}' well enough.`,
    'concept_not_found',
    { system: system ?? null, code: code ?? null, vocabulary_id: vocabularyId, display: display ?? null },
  );
}
