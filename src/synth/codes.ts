/**
 * Concept codes shaped like each source vocabulary's own codes, with the real check-digit schemes:
 * LOINC's mod-10 check digit and the Verhoeff check digit of SNOMED CT identifiers.
 */

/** LOINC check digit (the "Mod 10" algorithm from the LOINC users' guide; same as Luhn). */
export function loincCheckDigit(digits: string): number {
  let sum = 0;
  let double = true; // rightmost digit is doubled
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) throw new Error(`loincCheckDigit: not a digit in ${digits}`);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

/** `2345` → `2345-7`. `prefix` is `LP`, `LA`, `LG` for parts, answers and groups. */
export function loincCode(num: number, prefix = ''): string {
  const digits = String(num);
  return `${prefix}${digits}-${loincCheckDigit(digits)}`;
}

/** True when a LOINC-shaped code (`2345-7`, `LP14559-6`, `LA6576-8`) carries a valid check digit. */
export function isValidLoincCode(code: string): boolean {
  const m = /^(?:L[PAG])?(\d+)-(\d)$/.exec(code);
  if (!m) return false;
  return loincCheckDigit(m[1]!) === Number(m[2]);
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 7, 6, 8, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

export function verhoeffCheckDigit(digits: string): number {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = VERHOEFF_D[c]![VERHOEFF_P[(i + 1) % 8]![d]!]!;
  }
  return VERHOEFF_INV[c]!;
}

export function isValidVerhoeff(digits: string): boolean {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![d]!]!;
  }
  return c === 0;
}

/**
 * SNOMED CT concept id: item id + partition (`00` international concept, `10` extension concept
 * with a 7-digit namespace) + Verhoeff check digit. E.g. 22298006, 1000124108 style extension ids.
 */
export function sctid(itemId: number, namespace?: number): string {
  const body = namespace === undefined ? `${itemId}00` : `${itemId}${namespace}10`;
  return `${body}${verhoeffCheckDigit(body)}`;
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Read v2 style 5-character code padded with dots plus a 2-digit term code: `G30..00`. */
export function readCode(path: string, termCode: string): string {
  return `${path.padEnd(5, '.')}${termCode}`;
}

export function readChar(i: number): string {
  return ALNUM[i % ALNUM.length]!;
}

/** ICD10 / ICD10CM code from a category (`E11`) and a suffix (`9`, `65`, `001A`). */
export function icdCode(category: string, suffix: string): string {
  return suffix ? `${category}.${suffix}` : category;
}

/** Pattern of a well-formed ICD10CM code. */
export const ICD10CM_PATTERN = /^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/;

/** ATC code pieces: level 1 letter, level 2 two digits, level 3 letter, level 4 letter, level 5 two digits. */
export const ATC_PATTERN = /^[A-Z]([0-9]{2}([A-Z]([A-Z]([0-9]{2})?)?)?)?$/;
