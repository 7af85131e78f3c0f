/**
 * FHIR JSON → FHIR XML by the format's own version-independent rules (FHIR xml.html, json.html), written by hand,
 * so an R5-only element is written like any other; also the well-formedness check of XML request bodies.
 */
import { createRequire } from 'node:module';

export const FHIR_NAMESPACE = 'http://hl7.org/fhir';

/** The parts of a sax parser used here (sax has no type declarations in the project). */
interface SaxParser {
  line: number;
  column: number;
  onerror: (error: Error) => void;
  onopentag: () => void;
  onclosetag: () => void;
  write(text: string): SaxParser;
  close(): SaxParser;
}

/**
 * sax, the XML parser the `fhir` library reads with (through xml-js), resolved from that library so
 * that it is the very same parser. xml-js runs it strict but ignores what sax reports at the end of
 * the document (an unclosed root tag, a document ending inside a tag), so such a body would read as
 * an empty resource.
 */
const sax = createRequire(createRequire(import.meta.url).resolve('fhir'))('sax') as { parser(strict: boolean, options: object): SaxParser };

/**
 * The first well-formedness error of an XML document, as "<reason> at line L, column C", or null when
 * it is one well-formed document (one root element, every tag closed, attributes quoted, entities
 * known). Checked by sax in strict mode, plus what sax does not check: a root element, and only one.
 */
export function xmlWellFormednessError(text: string): string | null {
  const parser = sax.parser(true, { position: true });
  let first: string | null = null;
  const fail = (reason: string) => {
    first ??= `${reason.replace(/\.$/, '')} at line ${parser.line + 1}, column ${parser.column}`;
  };
  let depth = 0;
  let roots = 0;
  parser.onerror = (error) => {
    fail(error.message.split('\n')[0]!);
    (parser as unknown as { error: Error | null }).error = null; // go on to the end of the text: the first error is kept
  };
  parser.onopentag = () => {
    if (depth++ === 0 && ++roots === 2) fail('More than one root element');
  };
  parser.onclosetag = () => {
    depth--;
  };
  try {
    parser.write(text);
    const endLine = parser.line;
    const endColumn = parser.column;
    parser.close();
    if (roots === 0 && first === null) first = `No root element at line ${endLine + 1}, column ${endColumn}`;
  } catch (err) {
    fail((err as Error).message.split('\n')[0]!);
  }
  return first;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const INDENT = '  ';

/** An XML name a FHIR element can have (ASCII letters, digits, `_`, `-`, `.`, not starting with a digit). */
const ELEMENT_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Characters XML 1.0 cannot carry: C0 controls other than tab/newline/return, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

type JsonObject = Record<string, unknown>;
type Primitive = string | number | boolean;

function escapeAttribute(value: Primitive): string {
  return String(value)
    .replace(NOT_XML_CHARACTER, '\uFFFD')
    .replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isResource(value: unknown): value is JsonObject & { resourceType: string } {
  return isObject(value) && typeof value.resourceType === 'string' && ELEMENT_NAME.test(value.resourceType);
}

/**
 * Whether an XHTML fragment is one well-formed `<div …>…</div>` element: tags balanced and properly
 * nested, attributes quoted, `&` only in entity or character references, no `<` in text.
 */
function isWellFormedDiv(xhtml: string): boolean {
  const token = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\/([A-Za-z_][\w.:-]*)\s*>|<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|[^<]+|</g;
  const reference = /^&(?:[A-Za-z_][\w.-]*|#\d+|#x[0-9A-Fa-f]+);/;
  const open: string[] = [];
  let roots = 0;
  for (const [text, closing, opening, attributes, selfClosing] of xhtml.trim().matchAll(token)) {
    if (closing !== undefined) {
      if (open.pop() !== closing) return false;
    } else if (opening !== undefined) {
      if (open.length === 0) roots++;
      if (attributes && /&(?![A-Za-z_][\w.-]*;|#\d+;|#x[0-9A-Fa-f]+;)/.test(attributes)) return false;
      if (!selfClosing) open.push(opening);
    } else if (text === '<') {
      return false;
    } else if (!text.startsWith('<')) {
      if (open.length === 0 && text.trim() !== '') return false;
      for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', at + 1)) if (!reference.test(text.slice(at))) return false;
    }
  }
  return open.length === 0 && roots === 1 && /^<div[\s>/]/.test(xhtml.trim());
}

/** Collects the document: one entry per line when pretty, concatenated otherwise. */
class XmlLines {
  readonly lines: string[] = [];
  constructor(private readonly pretty: boolean) {}

  add(depth: number, text: string): number {
    this.lines.push(this.pretty ? INDENT.repeat(depth) + text : text);
    return this.lines.length - 1;
  }

  /** Turns an opening tag added at `index` into an empty element when nothing was added after it. */
  closeOrEmpty(index: number, depth: number, name: string): void {
    if (this.lines.length - 1 === index) this.lines[index] = this.lines[index]!.replace(/>$/, '/>');
    else this.add(depth, `</${name}>`);
  }

  text(): string {
    return this.lines.join(this.pretty ? '\n' : '');
  }
}

function attributesText(attributes: ReadonlyArray<[string, Primitive | undefined]>): string {
  return attributes
    .filter((a): a is [string, Primitive] => a[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
}

function writeResource(out: XmlLines, resource: JsonObject & { resourceType: string }, depth: number, namespace: boolean): void {
  const name = resource.resourceType;
  const at = out.add(depth, `<${name}${namespace ? attributesText([['xmlns', FHIR_NAMESPACE]]) : ''}>`);
  writeProperties(out, resource, depth + 1, { resource: true, extension: false, narrative: false });
  out.closeOrEmpty(at, depth, name);
}

interface ObjectKind {
  /** A resource: its `id` is an element. */
  resource: boolean;
  /** An extension: its `url` is an attribute. */
  extension: boolean;
  /** A Narrative: its `div` is XHTML. */
  narrative: boolean;
}

/** The properties that become attributes of an element's start tag. */
function attributeNames(kind: ObjectKind): string[] {
  return [...(kind.resource ? [] : ['id']), ...(kind.extension ? ['url'] : [])];
}

function writeProperties(out: XmlLines, object: JsonObject, depth: number, kind: ObjectKind): void {
  const attributes = new Set(attributeNames(kind));
  const written = new Set<string>();
  for (const key of Object.keys(object)) {
    const name = key.startsWith('_') ? key.slice(1) : key;
    if (written.has(name) || (kind.resource && name === 'resourceType') || !ELEMENT_NAME.test(name)) continue;
    if (attributes.has(name) && isPrimitive(object[name])) continue;
    written.add(name);
    if (kind.narrative && name === 'div' && typeof object.div === 'string') {
      if (isWellFormedDiv(object.div)) out.add(depth, object.div.trim());
      continue;
    }
    writeProperty(out, name, object[name], object[`_${name}`], depth);
  }
}

/** One property: its value (and `_name` sibling) as one element, or one element per array item. */
function writeProperty(out: XmlLines, name: string, value: unknown, primitiveElement: unknown, depth: number): void {
  if (Array.isArray(value) || Array.isArray(primitiveElement)) {
    const values = Array.isArray(value) ? value : [];
    const elements = Array.isArray(primitiveElement) ? primitiveElement : [];
    for (let i = 0; i < Math.max(values.length, elements.length); i++) writeElement(out, name, values[i], elements[i], depth);
    return;
  }
  writeElement(out, name, value, primitiveElement, depth);
}

function writeElement(out: XmlLines, name: string, value: unknown, primitiveElement: unknown, depth: number): void {
  if (isResource(value)) {
    const at = out.add(depth, `<${name}>`);
    writeResource(out, value, depth + 1, false);
    out.closeOrEmpty(at, depth, name);
    return;
  }
  const extension = name === 'extension' || name === 'modifierExtension';
  if (isObject(value)) {
    const kind = { resource: false, extension, narrative: name === 'text' };
    const attributes = attributeNames(kind).map((a): [string, Primitive | undefined] => [a, isPrimitive(value[a]) ? value[a] : undefined]);
    const at = out.add(depth, `<${name}${attributesText(attributes)}>`);
    writeProperties(out, value, depth + 1, kind);
    out.closeOrEmpty(at, depth, name);
    return;
  }
  const element = isObject(primitiveElement) ? primitiveElement : undefined;
  const primitive = isPrimitive(value) ? value : undefined;
  if (primitive === undefined && element === undefined) return;
  const id = element && isPrimitive(element.id) ? element.id : undefined;
  const at = out.add(depth, `<${name}${attributesText([['id', id], ['value', primitive]])}>`);
  if (element?.extension !== undefined) writeProperty(out, 'extension', element.extension, undefined, depth + 1);
  out.closeOrEmpty(at, depth, name);
}

/** A FHIR resource in its JSON form as a FHIR XML document; `pretty` puts each element on its own indented line. */
export function resourceToXml(resource: object, options: { pretty?: boolean } = {}): string {
  if (!isResource(resource)) throw new TypeError('resourceToXml: not a FHIR resource (no resourceType)');
  const out = new XmlLines(options.pretty === true);
  out.lines.push(XML_DECLARATION);
  writeResource(out, resource, 0, true);
  return out.text();
}
