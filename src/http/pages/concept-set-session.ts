/**
 * The builder's concept sets kept in the browser session (state store), under the session data's `conceptSets` key
 * (other pages may keep their own keys beside it): `{ v: 1, current: [[conceptId, flags], …], compare?: […] }`,
 * flags a bit mask (1 excluded, 2 descendants, 4 mapped), so that a set of MAX_EXPRESSION_ITEMS items stays near
 * 150 kB. Data that does not read as version 1 is taken as an empty set.
 */
import type { FastifyRequest } from 'fastify';
import { MAX_EXPRESSION_ITEMS, type ConceptSetItem } from '../../services/concept-sets/expression-formats.js';
import { ServiceError } from '../../services/errors.js';
import { MAX_SESSION_DATA_BYTES, type StateStore } from '../../state/state-store.js';

export const SESSION_FORMAT_VERSION = 1;

const EXCLUDED = 1;
const DESCENDANTS = 2;
const MAPPED = 4;

export interface BuilderSets {
  current: ConceptSetItem[];
  /** The "other" set of a comparison, when one was given. */
  compare?: ConceptSetItem[];
}

type Packed = Array<[number, number]>;

const pack = (items: readonly ConceptSetItem[]): Packed =>
  items.map((i) => [i.conceptId, (i.isExcluded ? EXCLUDED : 0) | (i.includeDescendants ? DESCENDANTS : 0) | (i.includeMapped ? MAPPED : 0)]);

function unpack(value: unknown): ConceptSetItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: ConceptSetItem[] = [];
  for (const entry of value.slice(0, MAX_EXPRESSION_ITEMS)) {
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [id, bits] = entry as unknown[];
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0 || id > 0x7fffffff || typeof bits !== 'number') continue;
    items.push({ conceptId: id, isExcluded: (bits & EXCLUDED) !== 0, includeDescendants: (bits & DESCENDANTS) !== 0, includeMapped: (bits & MAPPED) !== 0 });
  }
  return items;
}

function sessionIdOf(request: FastifyRequest): string {
  const id = request.browserSession?.id;
  if (!id) throw new ServiceError(401, 'session_required', 'Your session has ended: sign in again with your API key.');
  return id;
}

async function readAll(state: StateStore, request: FastifyRequest): Promise<Record<string, unknown>> {
  const text = await state.readSessionData(sessionIdOf(request));
  if (text === undefined) throw new ServiceError(401, 'session_required', 'Your session has ended: sign in again with your API key.');
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function readBuilderSets(state: StateStore, request: FastifyRequest): Promise<BuilderSets> {
  const all = await readAll(state, request);
  const sets = all.conceptSets as Record<string, unknown> | undefined;
  if (!sets || typeof sets !== 'object' || sets.v !== SESSION_FORMAT_VERSION) return { current: [] };
  const current = unpack(sets.current) ?? [];
  const compare = unpack(sets.compare);
  return compare ? { current, compare } : { current };
}

/** The 413 of a set that would not fit in the session. */
export function tooLarge(message: string): ServiceError {
  return new ServiceError(413, 'payload_too_large', message);
}

export async function writeBuilderSets(state: StateStore, request: FastifyRequest, sets: BuilderSets): Promise<void> {
  for (const [name, items] of [['current', sets.current], ['compare', sets.compare ?? []]] as const) {
    if (items.length > MAX_EXPRESSION_ITEMS) {
      throw tooLarge(`The ${name === 'current' ? 'concept set' : 'set to compare with'} would have ${items.length} items; a set holds at most ${MAX_EXPRESSION_ITEMS}.`);
    }
  }
  const all = await readAll(state, request);
  all.conceptSets = { v: SESSION_FORMAT_VERSION, current: pack(sets.current), ...(sets.compare ? { compare: pack(sets.compare) } : {}) };
  const text = JSON.stringify(all);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SESSION_DATA_BYTES) {
    throw tooLarge(`The session would hold ${bytes} bytes of page state; it keeps at most ${MAX_SESSION_DATA_BYTES}. Remove items or export the set.`);
  }
  let written: boolean;
  try {
    written = await state.writeSessionData(sessionIdOf(request), text);
  } catch (error) {
    if (error instanceof RangeError) throw tooLarge(`The session keeps at most ${MAX_SESSION_DATA_BYTES} bytes of page state: ${error.message}.`);
    throw error;
  }
  if (!written) throw new ServiceError(401, 'session_required', 'Your session has ended: sign in again with your API key.');
}
