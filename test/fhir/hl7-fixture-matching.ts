/**
 * The matching rules of the HL7 terminology ecosystem test runner (the Java validator's `txTests`:
 * TxTester, TxTesterScrubbers, TxTesterSorters, CompareUtilities; rules as the tx-ecosystem IG's
 * "Test cases" page states them), for comparing a server's answer with an expected response file.
 *
 * - The answer is scrubbed as the runner scrubs it (`scrubAnswer`): Parameters lose `meta`; an
 *   OperationOutcome or ValueSet loses `text`, `meta` and the extensions the runner does not manage
 *   (an absolute URL outside its list; not inside ValueSet.compose) — except an error answer of
 *   CodeSystem/$validate-code, which only loses `text`. A `message` parameter made of `; `-separated
 *   parts has its parts sorted, in the expected response too.
 * - Strings: `$$` anything; `$id$`, `$uuid$`, `$url$`, `$token$`, `$string$`, `$date$`, `$instant$`,
 *   `$semver$` any value of that kind; `$version$` the server's FHIR version (also inside a longer
 *   string); `$choice:a|b$` one of; `$fragments:a|b$` contains all (case-insensitive);
 *   `$external:N$` / `$external:N:a|b$` (no externals file: anything / the fragments). Any other
 *   `$…$` template is an error in the fixture.
 * - Objects: `$optional-properties$` (`*`: all) names properties that may be there or not: an answer
 *   may carry them beyond the expected ones (`compose`, `date` of an expansion, which the fixtures
 *   list without giving them) and may lack them when the expected object gives them (a coding's
 *   `version`, listed and given); when both have one, the values are compared. Any other property of
 *   the answer the expected object lacks, or of the expected object the answer lacks (unless every entry
 *   of its expected array is optional), is a difference. `$count-arrays$` compares only the length of the arrays it names.
 * - Arrays: order is ignored (the runner sorts both sides; here each answer item is paired with an
 *   expected item it matches). An expected item with `$optional$` may be missing: `true`, `"!mode"`
 *   (optional when not in that mode), `"mode"` (optional unless in that mode), `"version:N"`
 *   (optional when the server's FHIR version starts with N), `"warning:…"` (always optional). An item
 *   with `$only$` is required when its filter passes and must be absent otherwise. Every answer item
 *   must match an expected item.
 */

/** The run: the server's FHIR version (4.0.1, 5.0.0) and the runner's modes (`general`, `omop`, …). */
export interface MatchContext {
  fhirVersion: string;
  modes: ReadonlySet<string>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const DIRECTIVES = new Set(['$optional$', '$optional-properties$', '$count-arrays$', '$only$']);

/** Extensions the runner keeps when it scrubs an answer (TxTesterScrubbers.isManagedExtension, not tight). */
const MANAGED_EXTENSIONS = new Set([
  'http://hl7.org/fhir/StructureDefinition/codesystem-alternate',
  'http://hl7.org/fhir/StructureDefinition/codesystem-conceptOrder',
  'http://hl7.org/fhir/StructureDefinition/codesystem-label',
  'http://hl7.org/fhir/StructureDefinition/coding-sctdescid',
  'http://hl7.org/fhir/StructureDefinition/itemWeight',
  'http://hl7.org/fhir/StructureDefinition/rendering-style',
  'http://hl7.org/fhir/StructureDefinition/rendering-xhtml',
  'http://hl7.org/fhir/StructureDefinition/translation',
  'http://hl7.org/fhir/StructureDefinition/valueset-concept-definition',
  'http://hl7.org/fhir/StructureDefinition/valueset-conceptOrder',
  'http://hl7.org/fhir/StructureDefinition/valueset-deprecated',
  'http://hl7.org/fhir/StructureDefinition/valueset-label',
  'http://hl7.org/fhir/StructureDefinition/valueset-supplement',
  'http://hl7.org/fhir/StructureDefinition/alternate-code-use',
  'http://hl7.org/fhir/StructureDefinition/alternate-code-status',
  'http://hl7.org/fhir/test/CodeSystem/de-multi',
  'http://hl7.org/fhir/test/CodeSystem/en-multi',
  'http://hl7.org/fhir/test/StructureDefinition/unknown-extension-1',
  'http://hl7.org/fhir/test/StructureDefinition/unknown-extension-3',
  'http://hl7.org/fhir/test/StructureDefinition/unknown-extension-4',
  'http://hl7.org/fhir/test/StructureDefinition/unknown-extension-5',
  'http://hl7.org/fhir/test/ValueSet/extensions-bad-supplement',
  'http://hl7.org/fhir/test/ValueSet/simple-all',
  'http://hl7.org/fhir/test/ValueSet/simple-enumerated',
  'http://hl7.org/fhir/test/ValueSet/simple-filter-isa',
]);
const isManagedExtension = (url: unknown) => typeof url !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(url) || MANAGED_EXTENSIONS.has(url);

function withoutUnmanagedExtensions(value: Json, key?: string): Json {
  if (Array.isArray(value)) return value.map((v) => withoutUnmanagedExtensions(v));
  if (!isObject(value) || key === 'compose') return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'extension' && Array.isArray(v)) {
      const kept = v.filter((e) => isObject(e) && isManagedExtension(e.url)).map((e) => withoutUnmanagedExtensions(e));
      if (kept.length > 0) out[k] = kept;
    } else {
      out[k] = withoutUnmanagedExtensions(v, k);
    }
  }
  return out;
}

/** Sorts the `; `-separated parts of every `message` parameter, as TxTesterSorters.sortParameters does. */
export function sortMessageParts(resource: Json): Json {
  if (!isObject(resource) || resource.resourceType !== 'Parameters' || !Array.isArray(resource.parameter)) return resource;
  return {
    ...resource,
    parameter: resource.parameter.map((p) =>
      isObject(p) && p.name === 'message' && typeof p.valueString === 'string' && p.valueString.includes('; ')
        ? { ...p, valueString: p.valueString.split('; ').sort().join('; ') }
        : p,
    ),
  };
}

/** The answer as the runner compares it, for an answer of the given operation (the test's `operation`). */
export function scrubAnswer(operation: string, answer: Json): Json {
  if (!isObject(answer)) return answer;
  if (answer.resourceType === 'Parameters') {
    const { meta: _meta, ...rest } = answer;
    return sortMessageParts(rest);
  }
  const { text: _text, ...withoutText } = answer;
  if (answer.resourceType === 'OperationOutcome' && operation === 'cs-validate-code') return withoutText;
  const { meta: _meta, ...rest } = withoutText;
  return withoutUnmanagedExtensions(rest);
}

function filterPasses(filter: string, ctx: MatchContext): boolean {
  if (filter.startsWith('version:')) return ctx.fhirVersion.startsWith(filter.slice('version:'.length));
  if (filter.startsWith('!')) return !ctx.modes.has(filter.slice(1));
  return ctx.modes.has(filter);
}

/** Whether an expected array entry may be left out of the answer. */
function isOptional(entry: Json, ctx: MatchContext): boolean {
  if (!isObject(entry) || !('$optional$' in entry)) return false;
  const flag = entry.$optional$;
  if (typeof flag === 'boolean') return flag;
  if (typeof flag !== 'string') return false;
  if (flag.startsWith('warning:')) return true;
  if (flag.startsWith('version:') || flag.startsWith('!')) return filterPasses(flag, ctx);
  return !ctx.modes.has(flag);
}

/** False for an entry whose `$only$` filter fails: it must not be in the answer. */
function belongsToRun(entry: Json, ctx: MatchContext): boolean {
  return !isObject(entry) || typeof entry.$only$ !== 'string' || filterPasses(entry.$only$, ctx);
}

const PATTERNS: Record<string, RegExp> = {
  $instant$:
    /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]{1,9})?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))$/,
  $date$:
    /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]{1,9})?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?$/,
  $uuid$: /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  $id$: /^[A-Za-z0-9\-.]{1,64}$/,
  $url$: /^(https?:\/\/|www\.)[-a-zA-Z0-9+&@#/%?=~_|!:.;]*[-a-zA-Z0-9+&@#/%=~_|]$/,
  $token$: /^[0-9a-zA-Z_][0-9a-zA-Z_.-]*$/,
  $semver$:
    /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/,
};

const containsAll = (actual: string, fragments: string) => fragments.split('|').every((f) => actual.toLowerCase().includes(f.toLowerCase()));

function stringMatches(expected: string, actual: string, ctx: MatchContext): boolean {
  if (!(expected.length > 1 && expected.startsWith('$') && expected.endsWith('$'))) {
    return actual === (expected.includes('$version$') ? expected.replaceAll('$version$', ctx.fhirVersion) : expected);
  }
  const body = expected.slice(1, -1);
  if (body.startsWith('choice:')) return body.slice('choice:'.length).split('|').includes(actual);
  if (body.startsWith('fragments:')) return containsAll(actual, body.slice('fragments:'.length));
  if (body.startsWith('external:')) {
    const [, , fragments] = body.split(':');
    return fragments === undefined || containsAll(actual, fragments);
  }
  if (expected === '$$') return true;
  if (expected === '$string$') return actual === actual.trim();
  if (expected === '$version$') return actual === ctx.fhirVersion;
  const pattern = PATTERNS[expected];
  if (!pattern) throw new Error(`unhandled template in the expected response: ${expected}`);
  return pattern.test(actual);
}

const DESCRIPTION_LENGTH = 160;
const describe = (v: Json) => {
  const text = typeof v === 'string' ? `"${v}"` : JSON.stringify(v);
  return text.length > DESCRIPTION_LENGTH ? `${text.slice(0, DESCRIPTION_LENGTH)}…` : text;
};
const kind = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function compareObjects(path: string, expected: JsonObject, actual: JsonObject, ctx: MatchContext): string[] {
  const optionalNames = Array.isArray(expected['$optional-properties$']) ? (expected['$optional-properties$'] as Json[]) : [];
  const countOnly = new Set(Array.isArray(expected['$count-arrays$']) ? (expected['$count-arrays$'] as Json[]) : []);
  const out: string[] = [];
  for (const [name, value] of Object.entries(actual)) {
    if (name === 'fhir_comments') continue;
    if (!(name in expected) || DIRECTIVES.has(name)) {
      if (optionalNames.includes('*') || optionalNames.includes(name)) continue;
      out.push(`${path}: unexpected property ${name} (${describe(value)})`);
      continue;
    }
    const want = expected[name]!;
    if (countOnly.has(name) && Array.isArray(want) && Array.isArray(value)) {
      if (want.length !== value.length) out.push(`${path}.${name}: ${value.length} entries, expected ${want.length}`);
    } else {
      out.push(...compareValues(`${path}.${name}`, want, value, ctx));
    }
  }
  for (const [name, want] of Object.entries(expected)) {
    if (DIRECTIVES.has(name) || name === 'fhir_comments' || name in actual) continue;
    if (optionalNames.includes('*') || optionalNames.includes(name)) continue;
    if (Array.isArray(want) && want.filter((e) => belongsToRun(e, ctx)).every((e) => isOptional(e, ctx))) continue;
    out.push(`${path}: missing property ${name} (expected ${describe(want)})`);
  }
  return out;
}

/** Pairs answer items with expected items they match (augmenting paths); returns the expected index per answer item. */
function pairItems(compatible: boolean[][], expectedCount: number): Array<number | undefined> {
  const answerOf: Array<number | undefined> = new Array(expectedCount).fill(undefined);
  const tryAssign = (answer: number, seen: boolean[]): boolean => {
    for (let e = 0; e < expectedCount; e++) {
      if (!compatible[answer]![e] || seen[e]) continue;
      seen[e] = true;
      if (answerOf[e] === undefined || tryAssign(answerOf[e]!, seen)) {
        answerOf[e] = answer;
        return true;
      }
    }
    return false;
  };
  compatible.forEach((_, answer) => tryAssign(answer, new Array(expectedCount).fill(false)));
  const expectedOf: Array<number | undefined> = new Array(compatible.length).fill(undefined);
  answerOf.forEach((answer, e) => {
    if (answer !== undefined) expectedOf[answer] = e;
  });
  return expectedOf;
}

function compareArrays(path: string, expectedAll: Json[], actual: Json[], ctx: MatchContext): string[] {
  const expected = expectedAll.filter((e) => belongsToRun(e, ctx));
  const differencesOf = actual.map((a) => expected.map((e, i) => compareValues(`${path}[${i}]`, e, a, ctx)));
  const expectedOf = pairItems(
    differencesOf.map((row) => row.map((d) => d.length === 0)),
    expected.length,
  );
  const paired = new Set(expectedOf.filter((e): e is number => e !== undefined));
  const strays = actual.map((_, a) => a).filter((a) => expectedOf[a] === undefined);
  const out: string[] = [];
  expected.forEach((want, e) => {
    if (paired.has(e) || isOptional(want, ctx)) return;
    // Explain with the unpaired answer item closest to it.
    const nearest = strays.map((a) => differencesOf[a]![e]!).sort((x, y) => x.length - y.length)[0];
    out.push(`${path}: no answer item matches expected ${describe(want)}${nearest ? ` — the nearest answer item differs: ${nearest.join('; ')}` : ''}`);
  });
  for (const a of strays) out.push(`${path}: unexpected item ${describe(actual[a]!)}`);
  return out;
}

function compareValues(path: string, expected: Json, actual: Json, ctx: MatchContext): string[] {
  if (typeof expected === 'string' && typeof actual === 'string') {
    if (expected.includes('<div') && actual.includes('<div')) return [];
    return stringMatches(expected, actual, ctx) ? [] : [`${path}: ${describe(actual)}, expected ${describe(expected)}`];
  }
  if (kind(expected) !== kind(actual)) return [`${path}: ${kind(actual)} ${describe(actual)}, expected ${kind(expected)} ${describe(expected)}`];
  if (Array.isArray(expected)) return compareArrays(path, expected, actual as Json[], ctx);
  if (isObject(expected)) return compareObjects(path, expected, actual as JsonObject, ctx);
  return expected === actual ? [] : [`${path}: ${describe(actual)}, expected ${describe(expected)}`];
}

/** Every difference between an expected response (template) and a scrubbed answer; empty when the answer matches. */
export function responseDifferences(expected: unknown, answer: unknown, ctx: MatchContext): string[] {
  const root = isObject(expected) && typeof expected.resourceType === 'string' ? expected.resourceType : '$';
  return compareValues(root, sortMessageParts(expected as Json), answer as Json, ctx);
}
