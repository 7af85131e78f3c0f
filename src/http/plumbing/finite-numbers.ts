/**
 * Numbers in requests are finite and integers written as decimal digits, checked once for every route from its own
 * schema, just before validation, on the raw values; a violation is a 400 validation_error naming the parameter.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema, preValidationHookHandler } from 'fastify';
import { describeValidationFailure } from './error-responses.js';

const DECIMAL_INTEGER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

type NumericKind = 'integer' | 'number';

interface PropertySchema {
  type?: unknown;
  items?: PropertySchema;
}

/** The kind of number a field holds: itself, or each item of an array of numbers (e.g. `concept_ids`). */
function numericKind(schema: PropertySchema | undefined): NumericKind | undefined {
  const type = schema?.type === 'array' ? schema.items?.type : schema?.type;
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

type Context = 'querystring' | 'params' | 'body';

/** A numeric field of a route's schema: where it is read from and what kind of number it must be. */
interface NumericField {
  context: Context;
  name: string;
  kind: NumericKind;
}

function numericFields(context: Context, schema: unknown): NumericField[] {
  const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)?.properties;
  if (!properties) return [];
  const fields: NumericField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const kind = numericKind(property);
    if (kind) fields.push({ context, name, kind });
  }
  return fields;
}

function check(fields: readonly NumericField[], request: FastifyRequest): void {
  for (const { context, name, kind } of fields) {
    const values = context === 'querystring' ? request.query : context === 'params' ? request.params : request.body;
    if (values === null || typeof values !== 'object') continue;
    const raw = (values as Record<string, unknown>)[name];
    const items = Array.isArray(raw) ? raw : [raw];
    items.forEach((value, i) => {
      const reason = numberProblem(value, kind);
      // An item of a body list is named with its index (concept_ids.3); a repeated query parameter by its name.
      const path = Array.isArray(raw) && context === 'body' ? `/${name}/${i}` : `/${name}`;
      if (reason) throw describeValidationFailure(context, [{ instancePath: path, keyword: 'type', message: reason }]);
    });
  }
}

/**
 * Adds the check to every route registered after this call whose schema has numeric fields (the
 * fields are listed once, when the route is registered; routes without any pay nothing).
 */
export function installFiniteNumbers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as FastifySchema | undefined;
    if (!schema) return;
    const fields = [
      ...numericFields('querystring', schema.querystring),
      ...numericFields('params', schema.params),
      ...numericFields('body', schema.body),
    ];
    if (!fields.length) return;
    const checkFields: preValidationHookHandler = (request, _reply, done) => {
      try {
        check(fields, request);
        done();
      } catch (error) {
        done(error as Error);
      }
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [checkFields] : [...(Array.isArray(existing) ? existing : [existing]), checkFields];
  });
}
