/** Small builders of the FHIR resources every operation answers with (version-neutral shapes). */
import type { FastifyRequest } from 'fastify';
import type { FhirVersion } from './fhir-operation.js';

/** One Parameters.parameter: a name with one value[x], or parts. */
export interface FhirParameter {
  name: string;
  part?: FhirParameter[];
  [valueX: string]: unknown;
}

export interface ParametersResource {
  resourceType: 'Parameters';
  parameter: FhirParameter[];
}

export function parametersResource(parameters: FhirParameter[]): ParametersResource {
  return { resourceType: 'Parameters', parameter: parameters };
}

export interface FhirCoding {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
}

/** The absolute URL of the FHIR base the request came to (`https://host:port/fhir/r4`). */
export function fhirBase(request: FastifyRequest, version: FhirVersion): string {
  return `${request.protocol}://${request.host}/fhir/${version}`;
}

export interface BundleEntry {
  fullUrl: string;
  resource: object;
}

/** A searchset Bundle with `total`; no `entry` when there is none (a total alone, as for `_summary=count`). */
export function searchsetBundle(entry: readonly BundleEntry[], total: number): object {
  return { resourceType: 'Bundle', type: 'searchset', total, ...(entry.length > 0 ? { entry } : {}) };
}
