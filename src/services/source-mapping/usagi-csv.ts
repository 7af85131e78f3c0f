/**
 * Usagi's saved mapping file, written with its exact columns and CSV dialect (backslash escapes, one line per target)
 * so it opens in Usagi, and read back, from us or from Usagi (OHDSI/Usagi WriteCodeMappingsToFile, SourceCode.toRow,
 * ReadCodeMappingsFromFile); docs/mapping.md lists the columns.
 */
import { validationError } from '../errors.js';
import {
  EQUIVALENCES,
  type Equivalence,
  type MappedTerm,
  type MappingStatus,
  type SourceTerm,
  type StatusSetBy,
  type TermReview,
} from './mapping-types.js';

/** Source columns (SourceCode.toRow), then `ADD_INFO:<name>` per additional column, then the mapping columns. */
export const USAGI_SOURCE_COLUMNS = ['sourceCode', 'sourceName', 'sourceFrequency', 'sourceAutoAssignedConceptIds'] as const;
export const USAGI_MAPPING_COLUMNS = [
  'matchScore',
  'mappingStatus',
  'equivalence',
  'statusSetBy',
  'statusSetOn',
  'conceptId',
  'conceptName',
  'domainId',
  'mappingType',
  'comment',
  'createdBy',
  'createdOn',
  'assignedReviewer',
] as const;
export const USAGI_ADD_INFO_PREFIX = 'ADD_INFO:';
/** Usagi's mapping statuses; AUTO_MAPPED, AUTO_MAPPED_TO_1 and INVALID_TARGET read as unchecked. */
export const USAGI_STATUSES = ['APPROVED', 'UNCHECKED', 'AUTO_MAPPED', 'AUTO_MAPPED_TO_1', 'INVALID_TARGET', 'FLAGGED', 'IGNORED'] as const;
export type UsagiStatus = (typeof USAGI_STATUSES)[number];
export const USAGI_MAPPING_TYPES = ['MAPS_TO', 'MAPS_TO_VALUE', 'MAPS_TO_UNIT'] as const;
export type UsagiMappingType = (typeof USAGI_MAPPING_TYPES)[number];
/** How a rule's approval is written in statusSetBy (a person's name otherwise). */
export const RULE_AUTHOR_PREFIX = 'rule:';

export interface UsagiTarget {
  concept_id: number;
  /** Written for people; Usagi does not read them back. */
  concept_name: string;
  domain_id: string;
  mapping_type: UsagiMappingType;
  created_by: string;
  /** ISO time, or null (Usagi's 0). */
  created_on: string | null;
}

/** One source code of a Usagi file with its mapping (several file lines when it has several targets). */
export interface UsagiCodeMapping {
  source_code: string;
  source_name: string;
  source_frequency: number;
  auto_assigned_concept_ids: number[];
  additional_info: Record<string, string>;
  match_score: number;
  status: MappingStatus;
  /** Usagi's own status when it says more than `status` (AUTO_MAPPED…), kept so a Usagi file is written back as it was. */
  usagi_status?: UsagiStatus;
  equivalence: Equivalence;
  status_set_by: StatusSetBy | null;
  status_set_at: string | null;
  comment: string;
  assigned_reviewer: string;
  targets: UsagiTarget[];
  /** Line of the file the mapping starts on (reading only). */
  line?: number;
}

/** Name and domain of a target concept that is not among the term's candidates. */
export type ConceptLabelLookup = (conceptId: number) => { concept_name: string; domain_id: string } | undefined;

const STATUS_TO_USAGI: Record<MappingStatus, UsagiStatus> = { unchecked: 'UNCHECKED', approved: 'APPROVED', flagged: 'FLAGGED', ignored: 'IGNORED' };
const USAGI_TO_STATUS: Record<UsagiStatus, MappingStatus> = {
  APPROVED: 'approved',
  UNCHECKED: 'unchecked',
  AUTO_MAPPED: 'unchecked',
  AUTO_MAPPED_TO_1: 'unchecked',
  INVALID_TARGET: 'unchecked',
  FLAGGED: 'flagged',
  IGNORED: 'ignored',
};
const RULES = ['exact_code', 'exact_name', 'score_threshold'] as const;

function authorOf(by: StatusSetBy | null): string {
  if (!by) return '';
  return by.kind === 'rule' ? `${RULE_AUTHOR_PREFIX}${by.rule}` : by.reviewer;
}

function setByOf(author: string): StatusSetBy | null {
  if (author === '') return null;
  const rule = author.startsWith(RULE_AUTHOR_PREFIX) ? author.slice(RULE_AUTHOR_PREFIX.length) : null;
  if (rule && (RULES as readonly string[]).includes(rule)) return { kind: 'rule', rule: rule as (typeof RULES)[number] };
  return { kind: 'reviewer', reviewer: author };
}

const millis = (iso: string | null) => (iso ? String(new Date(iso).getTime()) : '0');
const isoOf = (ms: number) => (ms === 0 ? null : new Date(ms).toISOString());

/** A job's term as a Usagi mapping: the chosen targets (named from the candidates or `lookup`), the match score of the first. */
export function usagiMappingOf(mapped: MappedTerm, lookup: ConceptLabelLookup = () => undefined): UsagiCodeMapping {
  const { term, candidates, review } = mapped;
  const first = review.concept_ids[0];
  const scored = candidates.find((c) => c.concept_id === first) ?? candidates[0];
  return {
    source_code: term.source_code,
    source_name: term.source_name,
    source_frequency: term.source_frequency,
    auto_assigned_concept_ids: [],
    additional_info: { ...term.additional_info },
    match_score: scored?.score ?? 0,
    status: review.status,
    equivalence: review.equivalence,
    status_set_by: review.status_set_by,
    status_set_at: review.status_set_at,
    comment: review.comment,
    assigned_reviewer: review.assigned_reviewer,
    targets: review.concept_ids.map((id) => {
      const known = candidates.find((c) => c.concept_id === id) ?? lookup(id);
      return {
        concept_id: id,
        concept_name: known?.concept_name ?? '',
        domain_id: known?.domain_id ?? '',
        mapping_type: 'MAPS_TO',
        created_by: authorOf(review.status_set_by),
        created_on: review.status_set_at,
      };
    }),
  };
}

/** The term and review a Usagi mapping stands for (STCM export from a Usagi file, import into a job). */
export function termOfUsagiMapping(m: UsagiCodeMapping, index: number): { term: SourceTerm; review: TermReview } {
  return {
    term: {
      index,
      line: m.line ?? 0,
      source_code: m.source_code,
      source_name: m.source_name,
      source_frequency: m.source_frequency,
      additional_info: { ...m.additional_info },
    },
    review: {
      status: m.status,
      equivalence: m.equivalence,
      concept_ids: m.targets.map((t) => t.concept_id),
      comment: m.comment,
      status_set_by: m.status_set_by,
      status_set_at: m.status_set_at,
      assigned_reviewer: m.assigned_reviewer,
    },
  };
}

/** One field in Usagi's dialect (WriteCSVFile.columns2line): backslash escapes, quoted only with a quote or a comma. */
function usagiField(value: string): string {
  const hasQuotes = value.includes('"');
  let v = value.replace(/\\/g, '\\\\');
  if (hasQuotes) v = v.replace(/"/g, '\\"');
  v = v.replace(/\r/g, '').replace(/\n/g, '\\n');
  return hasQuotes || v.includes(',') ? `"${v}"` : v;
}

/** Usagi's saved file for these mappings: one line per target (a line with conceptId 0 when there is none). */
export function writeUsagiCsv(mappings: readonly UsagiCodeMapping[]): string {
  const infoNames: string[] = [];
  for (const m of mappings) for (const name of Object.keys(m.additional_info)) if (!infoNames.includes(name)) infoNames.push(name);
  const header = [...USAGI_SOURCE_COLUMNS, ...infoNames.map((n) => USAGI_ADD_INFO_PREFIX + n), ...USAGI_MAPPING_COLUMNS];
  const lines = [header.map(usagiField).join(',')];
  for (const m of mappings) {
    const usagiStatus = m.usagi_status && USAGI_TO_STATUS[m.usagi_status] === m.status ? m.usagi_status : STATUS_TO_USAGI[m.status];
    const targets: UsagiTarget[] = m.targets.length ? m.targets : [{ concept_id: 0, concept_name: '', domain_id: '', mapping_type: 'MAPS_TO', created_by: '', created_on: null }];
    for (const t of targets) {
      const row = [
        m.source_code,
        m.source_name,
        String(m.source_frequency),
        m.auto_assigned_concept_ids.join(';'),
        ...infoNames.map((n) => m.additional_info[n] ?? ''),
        String(m.match_score),
        usagiStatus,
        m.equivalence,
        authorOf(m.status_set_by),
        millis(m.status_set_at),
        String(t.concept_id),
        t.concept_name,
        t.domain_id,
        t.mapping_type,
        m.comment,
        t.created_by,
        millis(t.created_on),
        m.assigned_reviewer,
      ];
      lines.push(row.map(usagiField).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Usagi's StringUtilities.safeSplit: commas outside quotes that are not escaped. */
function safeSplit(line: string): string[] {
  const out: string[] = [];
  let literal = false;
  let escape = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' && !escape) literal = !literal;
    if (!literal && ch === ',' && !escape) {
      out.push(line.slice(start, i));
      start = i + 1;
    }
    escape = ch === '\\' ? !escape : false;
  }
  out.push(line.slice(start));
  return out;
}

/** A field as Usagi reads it (surrounding quotes dropped, `\"` and `\\` unescaped), plus `\n` as a line break. */
function unescapeField(raw: string): string {
  const quoted = raw.length > 1 && raw.startsWith('"') && raw.endsWith('"');
  const v = quoted ? raw.slice(1, -1) : raw;
  // re-saved by a spreadsheet: RFC 4180 doubled quotes and no backslash escapes
  if (quoted && v.includes('""') && !v.includes('\\')) return v.replace(/""/g, '"');
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    const next = v[i + 1];
    if (ch === '\\' && (next === '\\' || next === '"' || next === 'n')) {
      out += next === 'n' ? '\n' : next;
      i++;
    } else out += ch;
  }
  return out;
}

export interface UsagiReadProblem {
  line: number;
  column?: number;
  column_name?: string;
  message: string;
}

/** Reads a Usagi saved file; lines that cannot be read are reported (line, column) and left out. */
export function readUsagiCsv(input: string, fileName = 'usagi.csv'): { mappings: UsagiCodeMapping[]; bad_rows: UsagiReadProblem[] } {
  const lines = input.replace(/^\uFEFF/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const header = safeSplit(lines[0] ?? '').map(unescapeField);
  const at = (name: string) => header.indexOf(name);
  for (const required of ['sourceCode', 'sourceName', 'sourceFrequency', 'matchScore', 'mappingStatus', 'conceptId']) {
    if (at(required) < 0) {
      throw validationError(`${fileName}: line 1 has no '${required}' column; a Usagi file's header starts ${USAGI_SOURCE_COLUMNS.join(',')}.`, { parameter: 'file', line: 1, column_name: required });
    }
  }
  const infoColumns = header.map((h, i) => [h, i] as const).filter(([h]) => h.startsWith(USAGI_ADD_INFO_PREFIX));
  const mappings: UsagiCodeMapping[] = [];
  const bad: UsagiReadProblem[] = [];
  let current: UsagiCodeMapping | null = null;
  for (let n = 1; n < lines.length; n++) {
    const lineNo = n + 1;
    if (lines[n]!.trim() === '') continue;
    const fields = safeSplit(lines[n]!).map(unescapeField);
    if (fields.length !== header.length) {
      bad.push({ line: lineNo, column: Math.min(fields.length, header.length) + 1, message: `${fields.length} fields; the header has ${header.length}` });
      continue;
    }
    const get = (name: string, fallback = '') => (at(name) < 0 ? fallback : fields[at(name)]!);
    const problem = (name: string, message: string) => bad.push({ line: lineNo, column: at(name) + 1, column_name: name, message });
    const whole = (name: string, fallback = '0'): number | null => {
      const v = get(name, fallback).trim() || fallback;
      return /^-?\d+$/.test(v) ? Number(v) : null;
    };
    const frequency = whole('sourceFrequency');
    if (frequency === null) {
      problem('sourceFrequency', `'${get('sourceFrequency')}' is not a whole number`);
      continue;
    }
    const conceptId = whole('conceptId');
    if (conceptId === null || conceptId < 0) {
      problem('conceptId', `'${get('conceptId')}' is not a concept id`);
      continue;
    }
    const score = Number(get('matchScore', '0') || '0');
    if (!Number.isFinite(score)) {
      problem('matchScore', `'${get('matchScore')}' is not a number`);
      continue;
    }
    const usagiStatus = get('mappingStatus') as UsagiStatus;
    if (!USAGI_STATUSES.includes(usagiStatus)) {
      problem('mappingStatus', `'${usagiStatus}' is not one of ${USAGI_STATUSES.join(', ')}`);
      continue;
    }
    const equivalence = get('equivalence', 'UNREVIEWED') as Equivalence;
    if (!EQUIVALENCES.includes(equivalence)) {
      problem('equivalence', `'${equivalence}' is not one of ${EQUIVALENCES.join(', ')}`);
      continue;
    }
    const mappingType = (get('mappingType', 'MAPS_TO') || 'MAPS_TO') as string;
    const type = (USAGI_MAPPING_TYPES as readonly string[]).includes(mappingType) ? (mappingType as UsagiMappingType) : mappingType === 'VALUE' ? 'MAPS_TO_VALUE' : mappingType === 'UNIT' ? 'MAPS_TO_UNIT' : 'MAPS_TO';
    const autoIds = get('sourceAutoAssignedConceptIds')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    if (autoIds.some((s) => !/^\d+$/.test(s))) {
      problem('sourceAutoAssignedConceptIds', `'${get('sourceAutoAssignedConceptIds')}' is not a list of concept ids`);
      continue;
    }
    const sameCode = current && current.source_code === get('sourceCode') && current.source_name === get('sourceName');
    if (!sameCode) {
      const statusSetOn = whole('statusSetOn') ?? 0;
      current = {
        source_code: get('sourceCode'),
        source_name: get('sourceName'),
        source_frequency: frequency,
        auto_assigned_concept_ids: autoIds.map(Number),
        additional_info: Object.fromEntries(infoColumns.map(([h, i]) => [h.slice(USAGI_ADD_INFO_PREFIX.length), fields[i]!])),
        match_score: score,
        status: USAGI_TO_STATUS[usagiStatus],
        ...(STATUS_TO_USAGI[USAGI_TO_STATUS[usagiStatus]] !== usagiStatus ? { usagi_status: usagiStatus } : {}),
        equivalence,
        status_set_by: setByOf(get('statusSetBy')),
        status_set_at: isoOf(statusSetOn),
        comment: get('comment'),
        assigned_reviewer: get('assignedReviewer'),
        targets: [],
        line: lineNo,
      };
      mappings.push(current);
    }
    if (conceptId !== 0) {
      current!.targets.push({
        concept_id: conceptId,
        concept_name: get('conceptName'),
        domain_id: get('domainId'),
        mapping_type: type,
        created_by: get('createdBy'),
        created_on: isoOf(whole('createdOn') ?? 0),
      });
    }
  }
  return { mappings, bad_rows: bad };
}
