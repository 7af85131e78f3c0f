/** Argument schema pieces the tools share: enums as plain JSON-schema `enum` (what agents read best), comma lists, pages. */
import { Type, type TUnsafe } from 'typebox';

/** A string limited to these values, written as a JSON-schema `enum`. */
export function oneOf<const T extends readonly string[]>(values: T, description: string, defaultValue?: T[number]): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description, ...(defaultValue !== undefined ? { default: defaultValue } : {}) });
}

/** A comma-separated list argument (the hosted service's tools take lists this way). */
export const CsvArgument = (description: string) => Type.Optional(Type.String({ maxLength: 2000, description }));

export const ConceptIdArgument = (description: string) => Type.Integer({ minimum: 0, description });

/** `page` and `page_size` with the tool's cap written into the schema (a larger page_size is an argument error). */
export function pageArguments(defaultSize: number, maxSize: number) {
  return {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, 1-based (default 1). The result\'s meta.next_page says when there is another page.' })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: maxSize, default: defaultSize, description: `Results per page (1–${maxSize}, default ${defaultSize}).` })),
  };
}
