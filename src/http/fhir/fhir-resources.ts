/** Small builders of the FHIR resources every operation answers with (version-neutral shapes). */

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
