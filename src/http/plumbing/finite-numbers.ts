/**
 * Numbers in requests are finite, and integers are written as decimal digits — once, for every
 * route, from the route's own schema. Schema validation alone would let through what coercion
 * makes of a query string (`page=Infinity`, `page=1e309` → Infinity; `page=0x10` → 16;
 * `concept_id=1e3` → 1000) and what JSON.parse makes of `1e309` in a body. This check runs just
 * before validation on the raw values of the query string, path parameters and top-level body
 * fields whose schema type is integer or number, and answers 400 validation_error naming the
 * parameter.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { describeValidationFailure } from './error-responses.js';

const DECIMAL_INTEGER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

type NumericKind = 'integer' | 'number';

interface PropertySchema {
  type?: unknown;
}

function numericKind(schema: PropertySchema | undefined): NumericKind | undefined {
  const type = schema?.type;
  if (type === 'integer' || type === 'number') return type;
  return undefined;
}

/** Why a raw value is not an acceptable number of this kind; undefined when it is. */
function numberProblem(value: unknown, kind: NumericKind): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (typeof value !== 'string') return undefined; // other types are left to schema validation
  const text = value.trim();
  if (kind === 'integer') {
    if (!DECIMAL_INTEGER.test(text)) return 'must be a whole number written in decimal digits';
    return Number.isSafeInteger(Number(text)) ? undefined : `must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
  }
  if (!DECIMAL_NUMBER.test(text)) return 'must be a number written in decimal digits';
  return Number.isFinite(Number(text)) ? undefined : 'must be a finite number';
}

function check(context: 'querystring' | 'params' | 'body', schema: unknown, values: unknown): void {
  const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)?.properties;
  if (!properties || values === null || typeof values !== 'object') return;
  for (const [name, property] of Object.entries(properties)) {
    const kind = numericKind(property);
    if (!kind) continue;
    const raw = (values as Record<string, unknown>)[name];
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const reason = numberProblem(value, kind);
      if (reason) throw describeValidationFailure(context, [{ instancePath: `/${name}`, keyword: 'type', message: reason }]);
    }
  }
}

export function installFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema: FastifySchema | undefined = request.routeOptions.schema;
    if (!schema) return;
    check('querystring', schema.querystring, request.query);
    check('params', schema.params, request.params);
    check('body', schema.body, request.body);
  });
}
