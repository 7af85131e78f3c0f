/**
 * Tool arguments checked against the tool's input schema with the options the REST surface validates with (Ajv:
 * types coerced, defaults applied, unknown arguments dropped); a failure is a 400 validation_error naming the argument.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TObject } from 'typebox';
import { ServiceError } from '../services/errors.js';

const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
const compiled = new WeakMap<TObject, ValidateFunction>();

/** Describes the first schema violation the way the REST surface does ("Invalid query parameter 'x': …"), for an argument. */
export function describeArgumentFailure(issue: ErrorObject | undefined): ServiceError {
  let path = (issue?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (issue?.keyword === 'required') {
    const missing = String((issue.params as { missingProperty?: string }).missingProperty);
    path = path ? `${path}.${missing}` : missing;
    return new ServiceError(400, 'validation_error', `Missing required argument '${path}'.`, { parameter: path, location: 'arguments', reason: 'required' });
  }
  let reason = issue?.message ?? 'is invalid';
  const allowed = (issue?.params as { allowedValues?: unknown[] } | undefined)?.allowedValues;
  if (issue?.keyword === 'enum' && Array.isArray(allowed)) reason = `must be one of: ${allowed.join(', ')}`;
  const subject = path ? `argument '${path}'` : 'arguments';
  return new ServiceError(400, 'validation_error', `Invalid ${subject}: ${reason}.`, { parameter: path || undefined, location: 'arguments', reason });
}

/** The arguments, checked, with defaults filled in; throws the 400 that names the first bad argument. */
export function checkArguments(schema: TObject, args: Record<string, unknown> | undefined): Record<string, unknown> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const copy = structuredClone(args ?? {});
  if (!validate(copy)) throw describeArgumentFailure(validate.errors?.[0]);
  return copy;
}
