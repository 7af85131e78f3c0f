/**
 * Random requests for every operation of the OpenAPI document: each path and query parameter
 * present or absent with a plausible or hostile value (sometimes repeated), a JSON body built from
 * the body schema or a malformed one, one of four callers, and a respelled path (percent-encoded
 * letters or slashes, double slashes, dot segments, trailing slash, mixed case).
 */
import fc from 'fast-check';
import { jsonObject, malformedBody, parameterText, plausibleText } from './hostile-values.js';
import type { Operation } from './openapi-operations.js';

/** Who sends the request: nobody, a plain key, a key with CPT4 validation, a key the server never issued. */
export type Caller = 'anonymous' | 'key' | 'cpt4_key' | 'unknown_key';

export interface FuzzRequest {
  /** The operation the request was built from (its template, before respelling). */
  operation: { method: string; path: string };
  method: string;
  /** Path and query exactly as sent on the request line. */
  url: string;
  caller: Caller;
  body?: string;
  contentType?: string;
}

/** Percent-encodes for a URL, and sometimes leaves ASCII punctuation raw (malformed escapes reach the server). */
const encodeValue = (value: string, raw: boolean) => (raw && /^[\x21-\x7e]*$/.test(value) ? value.replace(/[#&?\s]/g, encodeURIComponent) : encodeURIComponent(value));

const hex = (ch: string, upper: boolean) => {
  const h = ch.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h}`;
};

/** A respelling of a path whose static segments are known (placeholders are never touched). */
type Respelling = (segments: Array<{ text: string; literal: boolean }>, pick: number) => Array<{ text: string; literal: boolean }>;

const RESPELLINGS: Record<string, Respelling> = {
  percentEncodedLetter: (segs, pick) => {
    const literal = segs.filter((s) => s.literal && /[a-z]/i.test(s.text));
    const seg = literal[pick % Math.max(1, literal.length)];
    if (!seg) return segs;
    const letters = [...seg.text].map((c, i) => (/[a-z]/i.test(c) ? i : -1)).filter((i) => i >= 0);
    const at = letters[pick % letters.length]!;
    return segs.map((s) => (s === seg ? { ...s, text: s.text.slice(0, at) + hex(s.text[at]!, pick % 2 === 0) + s.text.slice(at + 1) } : s));
  },
  percentEncodedSlash: (segs, pick) => {
    const at = 1 + (pick % Math.max(1, segs.length - 1));
    if (segs.length < 2) return segs;
    const joined = { text: `${segs[at - 1]!.text}${pick % 2 ? '%2F' : '%2f'}${segs[at]!.text}`, literal: false };
    return [...segs.slice(0, at - 1), joined, ...segs.slice(at + 1)];
  },
  doubleSlash: (segs, pick) => {
    const at = pick % (segs.length + 1);
    return [...segs.slice(0, at), { text: '', literal: false }, ...segs.slice(at)];
  },
  dotSegment: (segs, pick) => {
    const at = 1 + (pick % Math.max(1, segs.length));
    const dots = pick % 2 ? [{ text: '.', literal: false }] : [{ text: 'x', literal: false }, { text: '..', literal: false }];
    return [...segs.slice(0, at), ...dots, ...segs.slice(at)];
  },
  trailingSlash: (segs) => [...segs, { text: '', literal: false }],
  mixedCase: (segs, pick) => {
    const literal = segs.filter((s) => s.literal && /[a-z]/i.test(s.text));
    const seg = literal[pick % Math.max(1, literal.length)];
    return seg ? segs.map((s) => (s === seg ? { ...s, text: pick % 2 ? s.text.toUpperCase() : s.text[0]!.toUpperCase() + s.text.slice(1) } : s)) : segs;
  },
};

const noRespelling = fc.constant<Array<[string, number]>>([]);
const respellings = fc.array(fc.tuple(fc.constantFrom(...Object.keys(RESPELLINGS)), fc.nat(50)), { minLength: 1, maxLength: 2 });

const callers = fc.constantFrom<Caller>('key', 'key', 'key', 'cpt4_key', 'anonymous', 'unknown_key');
const keyCallers = fc.constantFrom<Caller>('key', 'key', 'cpt4_key');

/**
 * Requests for one operation. Plausible requests (canonical path, a key, plausible values, each
 * parameter at most once) reach the data and exercise the licence property; hostile ones (any
 * value, repeated parameters, unknown parameters, respelled paths, any caller) the error paths.
 */
export function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 2, arbitrary: buildRequest(operation, true) }, { weight: 3, arbitrary: buildRequest(operation, false) });
}

function buildRequest(operation: Operation, plausible: boolean): fc.Arbitrary<FuzzRequest> {
  const valueOf = (p: { schema: Operation['parameters'][number]['schema']; name: string }) => (plausible ? plausibleText(p.schema, p.name) : parameterText(p.schema, p.name));
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParams.map((p) => fc.tuple(valueOf(p), plausible ? fc.constant(false) : fc.boolean())));
  // Each query parameter: absent, once, or (hostile) twice — a repeated parameter arrives as an array.
  const queryValues = fc.tuple(
    ...queryParams.map((p) => {
      const values = fc.array(fc.tuple(valueOf(p), plausible ? fc.constant(false) : fc.boolean()), { minLength: 1, maxLength: plausible ? 1 : 2 });
      // Required parameters are usually present; optional ones present in about a third (plausible) or half (hostile) of the requests.
      const absentWeight = p.required ? 1 : plausible ? 14 : 7;
      return fc.oneof({ weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight: 7, arbitrary: values }).map((v) => ({ name: p.name, values: v }));
    }),
  );
  const extraQuery = plausible
    ? fc.constant(undefined)
    : fc.option(fc.tuple(fc.constantFrom('unknown', 'page', 'query', '', 'a[b]', '__proto__'), parameterText({})), { nil: undefined, freq: 4 });
  const body = operation.body
    ? fc.oneof(
        { weight: 4, arbitrary: jsonObject(operation.body.schema).map((text) => ({ text, contentType: 'application/json' })) },
        { weight: 1, arbitrary: malformedBody.map((text) => ({ text, contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.tuple(malformedBody, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', '')).map(([text, contentType]) => ({ text, contentType })) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.constant(undefined);

  const respell = plausible ? noRespelling : fc.oneof(noRespelling, respellings);
  const caller = plausible ? keyCallers : callers;
  return fc.record({ pathValues, queryValues, extraQuery, body, caller, respell }).map(({ pathValues, queryValues, extraQuery, body, caller, respell }) => {
    let valueIndex = 0;
    let segments = operation.path
      .split('/')
      .slice(1)
      .map((part) => {
        const placeholder = /^\{(.+)\}$/.exec(part);
        if (!placeholder) return { text: part, literal: true };
        const [value, raw] = pathValues[valueIndex++]!;
        return { text: encodeValue(value, raw), literal: false };
      });
    for (const [name, pick] of respell) segments = RESPELLINGS[name]!(segments, pick);
    const query: string[] = [];
    for (const { name, values } of queryValues) for (const [value, raw] of values ?? []) query.push(`${encodeURIComponent(name)}=${encodeValue(value, raw)}`);
    if (extraQuery) query.push(`${encodeURIComponent(extraQuery[0])}=${encodeURIComponent(extraQuery[1])}`);
    const url = `/${segments.map((s) => s.text).join('/')}${query.length ? `?${query.join('&')}` : ''}`;
    return {
      operation: { method: operation.method, path: operation.path },
      method: operation.method,
      url,
      caller,
      ...(body ? { body: body.text, contentType: body.contentType } : {}),
    };
  });
}

/** A request for any operation of the document. */
export function anyRequest(operations: readonly Operation[]): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map((op) => requestFor(op)));
}
