/** The two guides served as MCP resources: the concept-set expression format and the licence rules (docs/concept-sets.md, docs/licences.md in short). */
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../licences/licence-rules.js';

export const CONCEPT_SET_FORMAT_GUIDE = `# Concept-set expressions (OHDSI / ATLAS)

A concept set is a list of items, each a concept with three flags:

- \`isExcluded\` — remove what this item resolves to;
- \`includeDescendants\` — add every valid descendant (CONCEPT_ANCESTOR);
- \`includeMapped\` — add the source concepts whose valid \`Maps to\` points at the item (and at its descendants when
  includeDescendants is set).

Accepted forms (the \`expression\` argument of resolve_concept_set, optimize_concept_set, diff_concept_set):

\`\`\`json
{"items": [
  {"concept": {"CONCEPT_ID": 201820}, "isExcluded": false, "includeDescendants": true, "includeMapped": true},
  {"concept": {"CONCEPT_ID": 201254}, "isExcluded": true, "includeDescendants": true, "includeMapped": false}
]}
\`\`\`

Also \`{"expression": {...}}\`, a whole ATLAS concept set \`{"id", "name", "expression"}\`, the OHDSI TAB draft
(\`"concept": {"conceptId": 201826}\`) and ATLAS' CSV export as one string. A missing flag is false.

Resolution follows circe (the resolver behind ATLAS and WebAPI): an included item contributes its own concept (even if
invalid), descendants and mapped sources as above; the result is (union of included) − (union of excluded). A concept id
the release does not have is listed in \`unknown_concepts\`, not an error. Concepts of vocabularies your key may not read
never appear; items naming them are listed in \`restricted_items\`.

Workflow for a phenotype: find the concepts (search_concepts, semantic_search), check their descendants (get_hierarchy
direction='down'), write the expression, resolve it (resolve_concept_set), shrink it (optimize_concept_set) and check
what a new release changes (diff_concept_set).
`;

export const LICENCE_RULES_GUIDE = `# Licence rules

Some vocabularies are licensed. omopterm applies the rules to every tool, resource, REST route and FHIR operation:

- ${VALIDATION_REQUIRED_VOCABULARIES.join(', ')}: only for API keys whose owner has completed the annual licence
  validation (the key's validation date has not passed). Without it, CPT4 concepts never appear in any answer; asking
  for one explicitly (its concept_id, its code, a vocabulary filter naming it) is the error \`vocabulary_restricted\`.
- ${NEVER_SERVED_VOCABULARIES.join(', ')}: never served.

Everything else in the release (SNOMED, ICD10CM, RxNorm, LOINC, …) is served to every key. Searches, hierarchies and
mappings silently leave restricted concepts out; concept sets list the items that name them in \`restricted_items\`.
`;
