/** GET /v1/concept-classes (E1) and the client path GET /v1/vocabularies/concept-classes (a bare array). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listConceptClasses } from '../../services/vocabularies/concept-class-catalog.js';
import { ok } from '../plumbing/envelope.js';
import { csvList } from '../plumbing/query-values.js';
import { Envelope, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const ConceptClassSchema = Type.Object(
  {
    concept_class_id: Type.String(),
    concept_class_name: Type.String(),
    concept_class_concept_id: Type.Integer(),
    concept_count: Type.Optional(Type.Integer()),
    vocabulary_coverage: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: true },
);

const IncludeStats = Type.Optional(
  Type.Boolean({
    description: 'Add concept_count and vocabulary_coverage (ids of the vocabularies with concepts in the class), over the vocabularies selected and visible to this key.',
  }),
);

const LIST_DESCRIPTION =
  "The release's CONCEPT_CLASS table plus any class its concepts use that the table lacks (named by its id, concept_class_concept_id 0), " +
  'sorted by concept_class_id (code-point order). Classes whose concepts all belong to vocabularies this key may not see are not listed; naming such a ' +
  'vocabulary is 403 vocabulary_restricted. Not paginated.';

export function registerConceptClassRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: { vocabulary_ids?: string; include_stats?: boolean } }>(
    '/v1/concept-classes',
    {
      schema: {
        tags: ['Concept classes'],
        summary: 'List concept classes (E1)',
        description: `${LIST_DESCRIPTION} With vocabulary_ids, only classes holding concepts of those vocabularies, and the statistics count those vocabularies only.`,
        querystring: Type.Object({
          vocabulary_ids: Type.Optional(Type.String({ description: 'Comma-separated vocabulary ids: keep classes that contain concepts from these vocabularies.' })),
          include_stats: IncludeStats,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ concept_classes: Type.Array(ConceptClassSchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const classes = listConceptClasses(request.view, {
        vocabularyIds: csvList(q.vocabulary_ids),
        includeStats: q.include_stats,
      });
      return ok(request, { concept_classes: classes });
    },
  );

  app.get<{ Querystring: { vocabulary_id?: string; include_stats?: boolean } }>(
    '/v1/vocabularies/concept-classes',
    {
      schema: {
        tags: ['Concept classes'],
        summary: 'List concept classes (client path: a bare array)',
        description: `${LIST_DESCRIPTION} With vocabulary_id, only classes holding concepts of that vocabulary.`,
        querystring: Type.Object({
          vocabulary_id: Type.Optional(Type.String({ minLength: 1, description: 'Keep classes that contain concepts of this vocabulary.' })),
          include_stats: IncludeStats,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Array(ConceptClassSchema)), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const classes = listConceptClasses(request.view, {
        vocabularyIds: q.vocabulary_id === undefined ? undefined : [q.vocabulary_id],
        includeStats: q.include_stats,
      });
      return ok(request, classes);
    },
  );
}
