/**
 * The input of a FHIR operation, read the same way from GET query parameters (Codings in FHIR's token form
 * `system|code`) or a POST `Parameters` resource; a value of the wrong type is a 400 naming the parameter.
 */
import { validationError } from '../../services/errors.js';
import type { FhirCoding, FhirParameter } from './fhir-resources.js';

type QueryValue = string | string[] | undefined;

const PRIMITIVE_PREFIX = 'value';

function primitiveOf(p: FhirParameter): string | undefined {
  for (const [key, value] of Object.entries(p)) {
    if (!key.startsWith(PRIMITIVE_PREFIX) || key === 'valueCoding' || key === 'valueCodeableConcept') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  }
  return undefined;
}

function isCoding(value: unknown): value is FhirCoding {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(value).every(([k, v]) => !['system', 'version', 'code', 'display'].includes(k) || typeof v === 'string');
}

/** A URL value of a Coding parameter: FHIR's token `[system]|[code]` (see the header). */
function tokenCoding(text: string): FhirCoding {
  const bar = /(?<!\\)(?:\\\\)*\|/.exec(text);
  const unescape = (s: string) => s.replace(/\\([\\|,$])/g, '$1');
  if (!bar) return { code: unescape(text) };
  const end = bar.index + bar[0].length;
  const system = unescape(text.slice(0, end - 1));
  const code = unescape(text.slice(end));
  return { ...(system ? { system } : {}), ...(code ? { code } : {}) };
}

export class OperationParameters {
  /** @param fromUrl the entries that came from the query string (a Coding there is a token). */
  private constructor(
    private readonly entries: readonly FhirParameter[],
    private readonly fromUrl: ReadonlySet<FhirParameter> = new Set(),
  ) {}

  /** From a query string object (repeated parameters as arrays); `_format`, `_pretty` and `vocab_release` are not operation parameters. */
  static fromQuery(query: Record<string, QueryValue>): OperationParameters {
    const entries: FhirParameter[] = [];
    for (const [name, value] of Object.entries(query)) {
      if (name === '_format' || name === '_pretty' || name === 'vocab_release') continue;
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) entries.push({ name, valueString: v });
    }
    return new OperationParameters(entries, new Set(entries));
  }

  /** From a POST body: a Parameters resource (anything else is a 400), plus the query string's parameters. */
  static fromBody(body: unknown, query: Record<string, QueryValue>): OperationParameters {
    const fromQuery = OperationParameters.fromQuery(query).entries;
    if (body === undefined || body === null || body === '') return new OperationParameters(fromQuery, new Set(fromQuery));
    if (typeof body !== 'object' || Array.isArray(body) || (body as { resourceType?: unknown }).resourceType !== 'Parameters') {
      throw validationError('The request body must be a FHIR Parameters resource (resourceType "Parameters").');
    }
    const parameter = (body as { parameter?: unknown }).parameter ?? [];
    if (!Array.isArray(parameter)) throw validationError('Parameters.parameter must be an array.');
    return new OperationParameters([...OperationParameters.checked(parameter), ...fromQuery], new Set(fromQuery));
  }

  private static checked(list: unknown[]): FhirParameter[] {
    return list.map((p, i) => {
      if (!p || typeof p !== 'object' || typeof (p as { name?: unknown }).name !== 'string') {
        throw validationError(`Parameters.parameter[${i}] must be an object with a string name.`);
      }
      const part = (p as { part?: unknown }).part;
      if (part !== undefined && !Array.isArray(part)) throw validationError(`Parameters.parameter[${i}].part must be an array.`);
      return p as FhirParameter;
    });
  }

  private named(name: string): FhirParameter[] {
    return this.entries.filter((p) => p.name === name);
  }

  has(name: string): boolean {
    return this.entries.some((p) => p.name === name);
  }

  get(name: string): string | undefined {
    for (const p of this.named(name)) {
      const v = primitiveOf(p);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** The value of a parameter that must be given (an empty value is missing): a 400 naming it otherwise. */
  required(name: string): string {
    const v = this.get(name);
    if (v === undefined || v === '') throw validationError(`Parameter '${name}' is required.`, { parameter: name });
    return v;
  }

  all(name: string): string[] {
    return this.named(name)
      .map(primitiveOf)
      .filter((v): v is string => v !== undefined);
  }

  boolean(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw validationError(`Parameter '${name}' must be true or false, not '${v}'.`, { parameter: name });
  }

  integer(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(v)) throw validationError(`Parameter '${name}' must be an integer, not '${v}'.`, { parameter: name });
    return Number(v);
  }

  coding(name: string): FhirCoding | undefined {
    return this.codings(name)[0];
  }

  /** Every value of a Coding parameter: valueCoding from a body, `system|code` from the URL; any other value is a 400. */
  codings(name: string): FhirCoding[] {
    return this.named(name).map((p) => {
      if (this.fromUrl.has(p)) return tokenCoding(p.valueString as string);
      if (p.valueCoding !== undefined && isCoding(p.valueCoding)) return p.valueCoding;
      throw validationError(`Parameter '${name}' must be a Coding: a valueCoding (system, version, code, display as strings) in a Parameters body, or system|code in the URL.`, { parameter: name });
    });
  }

  codeableConcept(name: string): { coding?: FhirCoding[]; text?: string } | undefined {
    const p = this.named(name).find((x) => x.valueCodeableConcept !== undefined);
    if (!p) return undefined;
    const cc = p.valueCodeableConcept as { coding?: unknown; text?: unknown };
    if (!cc || typeof cc !== 'object' || (cc.coding !== undefined && (!Array.isArray(cc.coding) || !cc.coding.every(isCoding))) || (cc.text !== undefined && typeof cc.text !== 'string')) {
      throw validationError(`Parameter '${name}' must be a CodeableConcept.`, { parameter: name });
    }
    return cc as { coding?: FhirCoding[]; text?: string };
  }

  resource(name: string): Record<string, unknown> | undefined {
    return this.resources(name)[0];
  }

  /** Every resource given under the name (e.g. several `tx-resource`). */
  resources(name: string): Array<Record<string, unknown>> {
    return this.named(name).flatMap((p) => {
      const r = p.resource;
      if (r === undefined) return [];
      if (!r || typeof r !== 'object' || Array.isArray(r)) throw validationError(`Parameter '${name}' must be a resource.`, { parameter: name });
      return [r as Record<string, unknown>];
    });
  }

  parts(name: string): OperationParameters[] {
    return this.named(name).map((p) => new OperationParameters(OperationParameters.checked(p.part ?? [])));
  }
}

/** A required value read from the parameters: undefined or empty is the 400 `message`, naming `parameter`. */
export function requiredParameter(value: string | undefined, message: string, parameter: string): string {
  if (value === undefined || value === '') throw validationError(message, { parameter });
  return value;
}
