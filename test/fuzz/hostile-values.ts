/**
 * Value generators for the fuzz suite: plausible values taken from the parameter's schema and the
 * fixture, mixed with hostile ones — huge (10k characters), unicode, negative, non-finite,
 * fractional, empty and malformed — as query/path text and as raw JSON body fragments.
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.js';

export const HUGE_LENGTH = 10_000;

/** Values the fixture vocabulary (test/http/fixture-vocabulary.ts) answers to, by parameter name, so that plausible requests reach data. */
const FIXTURE_IDS = ['201826', '201820', '35206882', '7000001', '2414397', '7000002', '7000003', '7000004'];
const FIXTURE_QUERIES = ['diabetes', 'diab', 'Type 2 diabetes mellitus', 'E11.9', '44054006', '99213', 'office visit', 'drug group', 'MedDRA term', '201826', '2414397', 'A/B 12', 'slash', 'deprecated finding', 'COPD'];
const FIXTURE_VOCABULARIES = ['SNOMED', 'ICD10CM', 'CPT4', 'GPI', 'MedDRA', 'TESTVOC'];
const PLAUSIBLE_BY_NAME: Record<string, readonly string[]> = {
  query: FIXTURE_QUERIES,
  search: FIXTURE_QUERIES,
  concept_id: FIXTURE_IDS,
  target_concept_id: FIXTURE_IDS,
  concept_code: ['E11.9', 'A/B 12', '99213', '44054006', '27250050', '10012601'],
  vocabulary_id: FIXTURE_VOCABULARIES,
  vocabulary_ids: [...FIXTURE_VOCABULARIES, 'SNOMED,ICD10CM', 'CPT4,GPI,MedDRA'],
  vocabularies: FIXTURE_VOCABULARIES,
  domain_ids: ['Condition', 'Drug', 'Observation', 'Condition,Drug'],
  domains: ['Condition', 'Drug', 'Observation'],
  concept_class_ids: ['Clinical Finding', '4-char billing code', 'CPT4'],
  standard_concept: ['S', 'C', 'N', 'all', 'S,N'],
  vocab_release: ['2025.2', 'latest', 'default', '2025v2'],
  relationship_id: ['Is a', 'Maps to', 'Subsumes'],
  direction: ['forward', 'reverse'],
};
const FIXTURE_TEXT = [...new Set(Object.values(PLAUSIBLE_BY_NAME).flat())];

/** Numbers as text, including what JSON.parse and Number() read as non-finite or unsafe. */
const NUMBER_TEXT = ['-1', '0', '1', '2', '10', '20', '100', '200', '201', '1000', '1001', '-0', '1.5', '0.5', '2.0', '1e3', '1e309', '-1e309', 'Infinity', '-Infinity', 'NaN', '9007199254740993', '1e9', '1000000000', '0x10', '+1', '1_000', ' 1', '1 '];
const MALFORMED_TEXT = ['', ' ', '%', '%zz', '%00', '%C3%28', '[]', '{}', '{', 'null', 'undefined', 'true', 'false', 'yes', '\u0000', '\r\n', ',', ',,,', "'", '"', '<script>', '../../etc/passwd', '*', '?', '#', '&', '='];

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const binaryText = fc.string({ unit: 'binary', maxLength: 20 });
const hugeText = fc.oneof(
  fc.constantFrom('a', 'diabetes ', 'é', '𝔘', '%2F', ',').map((s) => s.repeat(Math.ceil(HUGE_LENGTH / s.length)).slice(0, HUGE_LENGTH)),
  fc.integer({ min: 1, max: 9 }).map((d) => String(d).repeat(HUGE_LENGTH)),
);

/** Plausible values for a parameter: the fixture's values for its name, its enum, small numbers within its bounds, booleans. */
export function plausibleText(schema: JsonSchema, name = ''): fc.Arbitrary<string> {
  const byName = PLAUSIBLE_BY_NAME[name];
  if (byName) return fc.constantFrom(...byName);
  const enums = schema.enum ?? schema.anyOf?.flatMap((s) => s.enum ?? ((s as { const?: unknown }).const !== undefined ? [(s as { const?: unknown }).const] : []));
  if (enums?.length) return fc.constantFrom(...enums.map(String));
  const types = [schema.type, ...(schema.anyOf ?? []).map((s) => s.type)].flat().filter(Boolean);
  if (types.includes('boolean')) return fc.constantFrom('true', 'false');
  if (types.includes('integer') || types.includes('number')) {
    const min = schema.minimum ?? 0;
    return fc.integer({ min, max: Math.max(min, Math.min(schema.maximum ?? 100, 100)) }).map(String);
  }
  return fc.constantFrom(...FIXTURE_TEXT);
}

/** A value for a query or path parameter, as text (encoded later). */
export function parameterText(schema: JsonSchema, name = ''): fc.Arbitrary<string> {
  return fc.oneof(
    // Huge values are rare per parameter: a request carries about one, so most stay under the header limit.
    { weight: 24, arbitrary: plausibleText(schema, name) },
    { weight: 8, arbitrary: fc.constantFrom(...NUMBER_TEXT, ...FIXTURE_IDS) },
    { weight: 8, arbitrary: fc.constantFrom(...MALFORMED_TEXT) },
    { weight: 8, arbitrary: unicodeText },
    { weight: 4, arbitrary: binaryText },
    { weight: 1, arbitrary: hugeText },
    { weight: 4, arbitrary: fc.double().map(String) },
    { weight: 4, arbitrary: fc.bigInt().map(String) },
  );
}

/** Raw JSON text for a body field: any JSON type, plus number literals JSON.parse turns into Infinity. */
export function jsonFragment(schema: JsonSchema, depth = 0, name = ''): fc.Arbitrary<string> {
  const scalar = fc.oneof(
    { weight: 4, arbitrary: plausibleText(schema, name).map((s) => (/^-?\d+(\.\d+)?$/.test(s) || s === 'true' || s === 'false' ? s : JSON.stringify(s))) },
    fc.constantFrom('1e309', '-1e309', '-1', '0', '1.5', '1e400', '123456789012345678901234567890', 'null', 'true', 'false', '""', '" "', '"NaN"', '"Infinity"', '[]', '{}', '[null]', '{"a":1}'),
    unicodeText.map((s) => JSON.stringify(s)),
    hugeText.map((s) => JSON.stringify(s)),
    fc.double({ noDefaultInfinity: true, noNaN: true }).map((n) => JSON.stringify(n)),
  );
  if (depth >= 2) return scalar;
  const itemSchema = schema.items ?? schema.anyOf?.find((s) => s.items)?.items;
  const objectSchema = schema.properties ? schema : itemSchema?.properties ? itemSchema : undefined;
  const options: Array<fc.Arbitrary<string>> = [scalar];
  if (itemSchema) {
    const count = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(50, 51, 60));
    options.push(count.chain((n) => fc.array(jsonFragment(itemSchema, depth + 1, name), { minLength: n, maxLength: n })).map((items) => `[${items.join(',')}]`));
  }
  if (schema.properties) options.push(jsonObject(schema, depth + 1));
  else if (objectSchema) options.push(jsonObject(objectSchema, depth + 1));
  return fc.oneof(...options);
}

/** A JSON object text with a random subset of the schema's properties (and sometimes an unknown one). */
export function jsonObject(schema: JsonSchema, depth = 0): fc.Arbitrary<string> {
  const entries = Object.entries(schema.properties ?? {}).map(([name, s]) => fc.option(jsonFragment(s, depth, name).map((v) => `${JSON.stringify(name)}:${v}`), { nil: undefined, freq: 2 }));
  const extra = fc.option(fc.tuple(fc.constantFrom('unknown', '__proto__', 'constructor', ''), jsonFragment({}, 2)).map(([k, v]) => `${JSON.stringify(k)}:${v}`), { nil: undefined, freq: 4 });
  return fc.tuple(fc.tuple(...entries, extra)).map(([fields]) => `{${fields.filter((f): f is string => f !== undefined).join(',')}}`);
}

/** A whole request body that is not the JSON object the route wants. */
export const malformedBody = fc.oneof(
  fc.constantFrom('', '{', '}', '[]', 'null', '""', '123', 'true', '{"searches":', '{"a":1}{"b":2}', '\u0000', '{"searches":[]}', '{"searches":null}', '{"query":"\ud800"}'),
  hugeText.map((s) => JSON.stringify({ query: s })),
  unicodeText,
  fc.json(),
);
