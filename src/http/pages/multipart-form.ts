/**
 * multipart/form-data bodies for the pages scope (a file picked in a form), parsed by @fastify/busboy while the body
 * is read, into the same plain object a urlencoded form gives, so the gate's CSRF check sees `_csrf` before the route.
 */
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../services/errors.js';

/** A file field of a multipart form, read whole. */
export interface UploadedFile {
  kind: 'file';
  filename: string;
  type: string;
  data: Buffer;
}

export interface MultipartLimits {
  /** Largest file accepted (a bigger one is a 413 naming the field). */
  fileBytes: number;
  /** Largest text field. */
  fieldBytes: number;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file' && Buffer.isBuffer((value as UploadedFile).data);

export function registerMultipartForms(app: FastifyInstance, limits: MultipartLimits): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    let parser: ReturnType<typeof createParser>;
    const form: Record<string, unknown> = {};
    let failed = false;
    const fail = (error: ServiceError) => {
      if (failed) return;
      failed = true;
      payload.unpipe();
      payload.resume();
      done(error, undefined);
    };
    function createParser() {
      return new Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { files: 1, fields: 50, parts: 51, fieldSize: limits.fieldBytes, fileSize: limits.fileBytes, headerPairs: 20 },
      });
    }
    try {
      parser = createParser();
    } catch (error) {
      done(new ServiceError(400, 'validation_error', `The form could not be read: ${(error as Error).message}.`), undefined);
      return;
    }
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) return fail(new ServiceError(413, 'payload_too_large', `Invalid form field '${name}': at most ${limits.fieldBytes} bytes.`, { parameter: name }));
      const previous = form[name];
      form[name] = previous === undefined ? value : Array.isArray(previous) ? [...(previous as string[]), value] : [previous, value];
    });
    parser.on('file', (name: string, stream: NodeJS.ReadableStream & { truncated?: boolean }, filename: string, _encoding: string, type: string) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new ServiceError(413, 'payload_too_large', `The file in '${name}' is larger than ${limits.fileBytes} bytes.`, { parameter: name })));
      stream.on('end', () => {
        if (!stream.truncated) form[name] = { kind: 'file', filename: filename ?? '', type: type ?? '', data: Buffer.concat(chunks) } satisfies UploadedFile;
      });
    });
    parser.on('filesLimit', () => fail(new ServiceError(400, 'validation_error', 'The form sends one file at most.')));
    parser.on('fieldsLimit', () => fail(new ServiceError(400, 'validation_error', 'The form has too many fields.')));
    parser.on('partsLimit', () => fail(new ServiceError(400, 'validation_error', 'The form has too many parts.')));
    parser.on('error', (error: Error) => fail(new ServiceError(400, 'validation_error', `The form could not be read: ${error.message}.`)));
    parser.on('finish', () => {
      if (!failed) done(null, form);
    });
    payload.pipe(parser);
  });
}
