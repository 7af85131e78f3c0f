/**
 * The operations of a served OpenAPI 3 document, flattened for the fuzz suite and the OpenAPI truth
 * test: method, path template, parameters (where, required, schema) and the JSON body schema.
 */

// The document is plain JSON; these are the parts the tests read.
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path template, e.g. /v1/concepts/{concept_id}. */
  path: string;
  parameters: OperationParameter[];
  /** application/json request body schema, when the operation takes a body. */
  body?: { schema: JsonSchema; required: boolean };
}

/** The OAuth 2.0 token endpoint (Authentication 4): public, and it answers in RFC 6749 JSON, not the envelope. */
export const OAUTH2_TOKEN_PATH = '/oauth2/token';

/** Routes that answer without an API key (docs/security.md "Authentication"; the landing page / is not in the OpenAPI document). */
export function isPublicPath(path: string): boolean {
  return path === '/health' || path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/') || path === OAUTH2_TOKEN_PATH;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: OperationParameter['in']; required?: boolean; schema?: JsonSchema }>; requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } }>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const json = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? {} })),
        ...(json ? { body: { schema: json, required: op.requestBody?.required === true } } : {}),
      });
    }
  }
  return operations;
}

/** The `{name}` placeholders of a path template, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
