/**
 * Reading the pages' form fields (urlencoded or multipart bodies parsed into plain objects): each field once, as text
 * within a length, checkboxes as "true"/"on" or absent; anything else is a 400 naming the field.
 */
import type { FastifyRequest } from 'fastify';
import { validationError, type ServiceError } from '../../services/errors.js';

export type Form = Record<string, unknown>;

export function formOf(request: FastifyRequest): Form {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Form) : {};
}

export function badField(name: string, why: string): ServiceError {
  return validationError(`Invalid form field '${name}': ${why}`, { parameter: name });
}

/** A single text field of the form; undefined when absent. */
export function textField(form: Form, name: string, maxLength: number): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badField(name, 'give it once, as text.');
  if (value.length > maxLength) throw badField(name, `at most ${maxLength} characters.`);
  return value;
}

/** A checkbox: absent is false, "true" (or a browser's default "on") is true. */
export function checkbox(form: Form, name: string): boolean {
  const value = textField(form, name, 10);
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true' || value === 'on') return true;
  throw badField(name, `a checkbox is "true" or absent, got ${JSON.stringify(value)}.`);
}
