/**
 * Parsers for Athena field values. Each returns null when the text is not a valid value (the
 * caller decides whether that is an error); none of them accepts an empty string.
 */

const ZERO = 48;
const NINE = 57;
const MINUS = 45;

/** A whole number such as `4329847` or `-1`; no spaces, signs other than a leading '-', or decimals. */
export function parseAthenaInteger(text: string): number | null {
  const length = text.length;
  let i = 0;
  let negative = false;
  if (length > 0 && text.charCodeAt(0) === MINUS) {
    negative = true;
    i = 1;
  }
  if (i === length || length - i > 16) return null;
  let value = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) return null;
    value = value * 10 + (c - ZERO);
  }
  if (!Number.isSafeInteger(value)) return null;
  return negative ? -value : value;
}

const REAL_PATTERN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number such as `0.5`, `500`, `1.2E-4`. */
export function parseAthenaReal(text: string): number | null {
  if (!REAL_PATTERN.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * A calendar date written `YYYYMMDD` (Athena) or `YYYY-MM-DD` (CSV exports), returned as the
 * integer YYYYMMDD the store keeps. Impossible dates (20230230, 2023-13-01) are rejected.
 */
export function parseAthenaDate(text: string): number | null {
  let year: number;
  let month: number;
  let day: number;
  if (text.length === 8) {
    year = digits(text, 0, 4);
    month = digits(text, 4, 6);
    day = digits(text, 6, 8);
  } else if (text.length === 10 && text.charCodeAt(4) === MINUS && text.charCodeAt(7) === MINUS) {
    year = digits(text, 0, 4);
    month = digits(text, 5, 7);
    day = digits(text, 8, 10);
  } else {
    return null;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return year * 10000 + month * 100 + day;
}

/** The digits text[from, to) as a number, or -1 when any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) return -1;
    value = value * 10 + (c - ZERO);
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Length in characters (code points), as the CDM's varchar limits count them. */
export function characterLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) length--; // a surrogate pair is one character
  }
  return length;
}
