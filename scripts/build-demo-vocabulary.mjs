#!/usr/bin/env node
// Builds the bundled demo vocabulary (examples/demo-vocabulary/*.csv, Athena download format)
// from the hand-editable sources in examples/demo-vocabulary/source/, then validates the result.
//
//   node scripts/build-demo-vocabulary.mjs           build + validate
//   node scripts/build-demo-vocabulary.mjs --check   validate the committed *.csv files only
//
// Plain Node ESM, no dependencies. What the build derives:
//   - CONCEPT rows for the metadata concepts named by the reference tables' *_concept_id columns
//     (vocabulary, domain, concept class and relationship concepts), unless the source defines them;
//   - the reverse of every relationship (RELATIONSHIP.reverse_relationship_id), e.g. 'Subsumes' for 'Is a';
//   - 'Maps to' / 'Mapped from' from every standard concept to itself, as Athena ships them;
//   - CONCEPT_ANCESTOR: the reflexive-transitive closure over the relationships whose
//     RELATIONSHIP.defines_ancestry = '1' (concept_id_1 is the ancestor), restricted to valid standard and
//     classification concepts (standard_concept 'S' or 'C'). Levels count only the edges of relationships
//     with is_hierarchical = '1' ('Subsumes', 'RxNorm ing of', ...); 'Has tradename' and 'Has quantified form'
//     define ancestry without adding a level. min/max = shortest/longest path.
//     One exception, copied from what Athena ships: ATC classes are ancestors of the RxNorm concepts they are
//     linked to ('ATC - RxNorm', 'ATC - RxNorm pr lat'; 0 levels, as in the 2024 CONCEPT_ANCESTOR) although
//     RELATIONSHIP marks those relationships defines_ancestry = '0'. See ANCESTRY_EXTRA.

import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = join(ROOT, 'examples', 'demo-vocabulary');
const SRC = join(DEMO, 'source');
const ENGLISH = '4180186';
const MIN_CONCEPTS = 300;
/** Relationships that build ancestry although RELATIONSHIP.defines_ancestry is '0' (value: levels per edge). */
const ANCESTRY_EXTRA = { 'ATC - RxNorm': 0, 'ATC - RxNorm pr lat': 0 };

const COLUMNS = {
  CONCEPT: ['concept_id', 'concept_name', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept',
    'concept_code', 'valid_start_date', 'valid_end_date', 'invalid_reason'],
  CONCEPT_RELATIONSHIP: ['concept_id_1', 'concept_id_2', 'relationship_id', 'valid_start_date', 'valid_end_date',
    'invalid_reason'],
  CONCEPT_ANCESTOR: ['ancestor_concept_id', 'descendant_concept_id', 'min_levels_of_separation',
    'max_levels_of_separation'],
  CONCEPT_SYNONYM: ['concept_id', 'concept_synonym_name', 'language_concept_id'],
  VOCABULARY: ['vocabulary_id', 'vocabulary_name', 'vocabulary_reference', 'vocabulary_version',
    'vocabulary_concept_id'],
  DOMAIN: ['domain_id', 'domain_name', 'domain_concept_id'],
  CONCEPT_CLASS: ['concept_class_id', 'concept_class_name', 'concept_class_concept_id'],
  RELATIONSHIP: ['relationship_id', 'relationship_name', 'is_hierarchical', 'defines_ancestry',
    'reverse_relationship_id', 'relationship_concept_id'],
  DRUG_STRENGTH: ['drug_concept_id', 'ingredient_concept_id', 'amount_value', 'amount_unit_concept_id',
    'numerator_value', 'numerator_unit_concept_id', 'denominator_value', 'denominator_unit_concept_id', 'box_size',
    'valid_start_date', 'valid_end_date', 'invalid_reason'],
};

const errors = [];
const fail = (msg) => errors.push(msg);

// ---------------------------------------------------------------- parsing

/** Reads a source TSV: first non-comment line is the header; blank lines and lines starting with '#' are skipped.
 *  Rows may be shorter than the header (missing trailing fields are empty), never longer. */
function readSource(file, expectedHeader) {
  const path = join(SRC, file);
  const text = readFileSync(path, 'utf8');
  if (text.includes('\r')) fail(`${file}: contains CR characters (use LF line endings)`);
  const rows = [];
  let header = null;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const fields = line.split('\t');
    if (!header) {
      header = fields;
      if (expectedHeader && header.join('\t') !== expectedHeader.join('\t')) {
        fail(`${file}: header is "${header.join(',')}", expected "${expectedHeader.join(',')}"`);
      }
      return;
    }
    if (fields.length > header.length) fail(`${file}:${i + 1}: ${fields.length} fields, header has ${header.length}`);
    const row = {};
    header.forEach((h, k) => { row[h] = (fields[k] ?? '').trim(); });
    row.__where = `${file}:${i + 1}`;
    rows.push(row);
  });
  return rows;
}

/** Reads a generated Athena file strictly: header must match, every line must have exactly the header's field count. */
function readAthena(table) {
  const file = `${table}.csv`;
  const text = readFileSync(join(DEMO, file), 'utf8');
  if (text.includes('\r')) fail(`${file}: contains CR characters`);
  if (!text.endsWith('\n')) fail(`${file}: missing final newline`);
  const lines = text.split('\n');
  lines.pop();
  const header = lines.shift().split('\t');
  if (header.join('\t') !== COLUMNS[table].join('\t')) fail(`${file}: header mismatch`);
  return lines.map((line, i) => {
    const f = line.split('\t');
    if (f.length !== header.length) fail(`${file}:${i + 2}: ${f.length} fields, expected ${header.length}`);
    const row = {};
    header.forEach((h, k) => { row[h] = f[k] ?? ''; });
    row.__where = `${file}:${i + 2}`;
    return row;
  });
}

function writeAthena(table, rows) {
  const cols = COLUMNS[table];
  const out = [cols.join('\t')];
  for (const r of rows) {
    const fields = cols.map((c) => String(r[c] ?? ''));
    for (const f of fields) {
      if (/[\t\n\r]/.test(f)) fail(`${table}: field contains TAB or newline: ${JSON.stringify(f)}`);
    }
    out.push(fields.join('\t'));
  }
  writeFileSync(join(DEMO, `${table}.csv`), out.join('\n') + '\n');
}

// ---------------------------------------------------------------- helpers

const isId = (v) => /^(0|[1-9][0-9]*)$/.test(v);
function isDate(v) {
  if (!/^[0-9]{8}$/.test(v)) return false;
  const y = +v.slice(0, 4), m = +v.slice(4, 6), d = +v.slice(6, 8);
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}
const byNum = (...keys) => (a, b) => {
  for (const k of keys) {
    const x = a[k], y = b[k];
    const c = isId(x) && isId(y) ? Number(x) - Number(y) : String(x).localeCompare(String(y));
    if (c) return c;
  }
  return 0;
};

/** CONCEPT_ANCESTOR from concepts, relationships and the RELATIONSHIP table (see the header comment). */
function computeAncestors(conceptRows, crRows, relRows) {
  const relInfo = new Map(relRows.map((r) => [r.relationship_id, r]));
  const inAncestry = new Set(conceptRows
    .filter((c) => (c.standard_concept === 'S' || c.standard_concept === 'C') && c.invalid_reason === '')
    .map((c) => c.concept_id));
  const children = new Map(); // ancestor -> [{to, w}]
  for (const r of crRows) {
    const info = relInfo.get(r.relationship_id);
    if (!info || r.invalid_reason !== '') continue;
    const extra = ANCESTRY_EXTRA[r.relationship_id];
    if (info.defines_ancestry !== '1' && extra === undefined) continue;
    if (!inAncestry.has(r.concept_id_1) || !inAncestry.has(r.concept_id_2)) continue;
    if (r.concept_id_1 === r.concept_id_2) continue;
    const w = extra ?? (info.is_hierarchical === '1' ? 1 : 0);
    if (!children.has(r.concept_id_1)) children.set(r.concept_id_1, []);
    const list = children.get(r.concept_id_1);
    const prev = list.find((e) => e.to === r.concept_id_2);
    if (prev) { prev.wmin = Math.min(prev.wmin, w); prev.wmax = Math.max(prev.wmax, w); } else {
      list.push({ to: r.concept_id_2, wmin: w, wmax: w });
    }
  }
  // cycle check + topological order (descendants before ancestors)
  const state = new Map(); const order = [];
  const visit = (n, path) => {
    if (state.get(n) === 2) return;
    if (state.get(n) === 1) { fail(`ancestry cycle through ${[...path, n].join(' -> ')}`); return; }
    state.set(n, 1);
    for (const e of children.get(n) ?? []) visit(e.to, [...path, n]);
    state.set(n, 2); order.push(n);
  };
  [...inAncestry].sort().forEach((n) => visit(n, []));
  // desc.get(a) = Map(descendant -> [min, max])
  const desc = new Map();
  for (const a of order) {
    const m = new Map([[a, [0, 0]]]);
    for (const e of children.get(a) ?? []) {
      for (const [d, [mn, mx]] of desc.get(e.to)) {
        const cand = [mn + e.wmin, mx + e.wmax];
        const cur = m.get(d);
        if (!cur) m.set(d, cand); else m.set(d, [Math.min(cur[0], cand[0]), Math.max(cur[1], cand[1])]);
      }
    }
    m.set(a, [0, 0]);
    desc.set(a, m);
  }
  const rows = [];
  for (const [a, m] of desc) {
    for (const [d, [mn, mx]] of m) {
      rows.push({ ancestor_concept_id: a, descendant_concept_id: d,
        min_levels_of_separation: String(mn), max_levels_of_separation: String(mx) });
    }
  }
  return rows.sort(byNum('ancestor_concept_id', 'descendant_concept_id'));
}

// ---------------------------------------------------------------- build

function build() {
  const vocab = readSource('vocabulary.tsv', COLUMNS.VOCABULARY);
  const domains = readSource('domain.tsv', COLUMNS.DOMAIN);
  const classes = readSource('concept_class.tsv', COLUMNS.CONCEPT_CLASS);
  const rels = readSource('relationship.tsv', COLUMNS.RELATIONSHIP);
  const srcConcepts = readSource('concepts.tsv', COLUMNS.CONCEPT);
  const srcRels = readSource('relationships.tsv',
    ['concept_id_1', 'relationship_id', 'concept_id_2', 'valid_start_date', 'valid_end_date', 'invalid_reason']);
  const srcSyn = readSource('synonyms.tsv', COLUMNS.CONCEPT_SYNONYM);
  const strengths = readSource('drug_strength.tsv', COLUMNS.DRUG_STRENGTH);

  // CONCEPT
  const concepts = new Map();
  for (const c of srcConcepts) {
    if (concepts.has(c.concept_id)) fail(`${c.__where}: duplicate concept_id ${c.concept_id}`);
    c.valid_start_date ||= '19700101';
    c.valid_end_date ||= '20991231';
    concepts.set(c.concept_id, c);
  }
  const meta = (id, name, vocabularyId, where) => {
    if (!id) return;
    const prev = concepts.get(id);
    if (prev) {
      if (prev.vocabulary_id !== vocabularyId) fail(`${where}: concept ${id} is already ${prev.__where}, not a ${vocabularyId} concept`);
      return;
    }
    concepts.set(id, { concept_id: id, concept_name: name, domain_id: 'Metadata', vocabulary_id: vocabularyId,
      concept_class_id: vocabularyId, standard_concept: '', concept_code: 'OMOP generated',
      valid_start_date: '19700101', valid_end_date: '20991231', invalid_reason: '', __where: where });
  };
  vocab.forEach((v) => meta(v.vocabulary_concept_id, v.vocabulary_name, 'Vocabulary', v.__where));
  domains.forEach((d) => meta(d.domain_concept_id, d.domain_name, 'Domain', d.__where));
  classes.forEach((c) => meta(c.concept_class_concept_id, c.concept_class_name, 'Concept Class', c.__where));
  rels.forEach((r) => meta(r.relationship_concept_id, r.relationship_name, 'Relationship', r.__where));
  const conceptRows = [...concepts.values()].sort(byNum('concept_id'));

  // CONCEPT_RELATIONSHIP
  const relInfo = new Map(rels.map((r) => [r.relationship_id, r]));
  const cr = new Map();
  const add = (a, rel, b, s, e, ir, where) => {
    const key = `${a}\t${rel}\t${b}`;
    const row = { concept_id_1: a, concept_id_2: b, relationship_id: rel,
      valid_start_date: s || '19700101', valid_end_date: e || '20991231', invalid_reason: ir || '', __where: where };
    const prev = cr.get(key);
    if (prev && (prev.valid_start_date !== row.valid_start_date || prev.valid_end_date !== row.valid_end_date
      || prev.invalid_reason !== row.invalid_reason)) {
      fail(`${where}: ${a} '${rel}' ${b} is also defined at ${prev.__where} with other dates`);
    }
    if (!prev) cr.set(key, row);
  };
  for (const r of srcRels) {
    const info = relInfo.get(r.relationship_id);
    if (!info) { fail(`${r.__where}: unknown relationship_id '${r.relationship_id}'`); continue; }
    add(r.concept_id_1, r.relationship_id, r.concept_id_2, r.valid_start_date, r.valid_end_date, r.invalid_reason, r.__where);
    add(r.concept_id_2, info.reverse_relationship_id, r.concept_id_1, r.valid_start_date, r.valid_end_date,
      r.invalid_reason, `${r.__where} (reverse)`);
  }
  for (const c of conceptRows) {
    if (c.standard_concept !== 'S') continue;
    add(c.concept_id, 'Maps to', c.concept_id, c.valid_start_date, '20991231', '', `${c.__where} (self map)`);
    add(c.concept_id, 'Mapped from', c.concept_id, c.valid_start_date, '20991231', '', `${c.__where} (self map)`);
  }
  const crRows = [...cr.values()].sort(byNum('concept_id_1', 'relationship_id', 'concept_id_2'));

  // CONCEPT_ANCESTOR
  const caRows = computeAncestors(conceptRows, crRows, rels);

  // CONCEPT_SYNONYM
  const synKeys = new Set();
  const synRows = [];
  for (const s of srcSyn) {
    s.language_concept_id ||= ENGLISH;
    const k = `${s.concept_id}\t${s.concept_synonym_name}\t${s.language_concept_id}`;
    if (synKeys.has(k)) { fail(`${s.__where}: duplicate synonym`); continue; }
    synKeys.add(k); synRows.push(s);
  }
  synRows.sort(byNum('concept_id', 'concept_synonym_name'));

  writeAthena('CONCEPT', conceptRows);
  writeAthena('CONCEPT_RELATIONSHIP', crRows);
  writeAthena('CONCEPT_ANCESTOR', caRows);
  writeAthena('CONCEPT_SYNONYM', synRows);
  writeAthena('VOCABULARY', [...vocab].sort(byNum('vocabulary_id')));
  writeAthena('DOMAIN', [...domains].sort(byNum('domain_id')));
  writeAthena('CONCEPT_CLASS', [...classes].sort(byNum('concept_class_id')));
  writeAthena('RELATIONSHIP', [...rels].sort(byNum('relationship_id')));
  writeAthena('DRUG_STRENGTH', [...strengths].sort(byNum('drug_concept_id', 'ingredient_concept_id')));
}

// ---------------------------------------------------------------- validation (reads the generated files back)

function check() {
  const t = {};
  for (const table of Object.keys(COLUMNS)) t[table] = readAthena(table);
  const extra = readdirSync(DEMO).filter((f) => f.endsWith('.csv') && !(f.slice(0, -4) in COLUMNS));
  if (extra.length) fail(`unexpected files: ${extra.join(', ')}`);

  const concepts = new Map();
  for (const c of t.CONCEPT) {
    if (!isId(c.concept_id)) fail(`${c.__where}: concept_id not numeric`);
    if (concepts.has(c.concept_id)) fail(`${c.__where}: duplicate concept_id ${c.concept_id}`);
    concepts.set(c.concept_id, c);
    if (!c.concept_name) fail(`${c.__where}: empty concept_name`);
    if (!c.concept_code) fail(`${c.__where}: empty concept_code`);
    if (!['S', 'C', ''].includes(c.standard_concept)) fail(`${c.__where}: bad standard_concept`);
    if (!['D', 'U', ''].includes(c.invalid_reason)) fail(`${c.__where}: bad invalid_reason`);
    for (const k of ['valid_start_date', 'valid_end_date']) if (!isDate(c[k])) fail(`${c.__where}: bad ${k} ${c[k]}`);
    if (c.valid_start_date > c.valid_end_date) fail(`${c.__where}: valid_start_date after valid_end_date`);
    if (c.invalid_reason && (c.standard_concept || c.valid_end_date >= '20991231')) {
      fail(`${c.__where}: invalid concept must be non-standard with a past valid_end_date`);
    }
    if (!c.invalid_reason && c.valid_end_date !== '20991231') fail(`${c.__where}: valid concept must end 20991231`);
  }
  const has = (id, where, what) => { if (!concepts.has(id)) fail(`${where}: ${what} ${id} not in CONCEPT`); };

  const vocabs = new Set(t.VOCABULARY.map((v) => v.vocabulary_id));
  const domains = new Set(t.DOMAIN.map((d) => d.domain_id));
  const classes = new Set(t.CONCEPT_CLASS.map((c) => c.concept_class_id));
  const rels = new Map(t.RELATIONSHIP.map((r) => [r.relationship_id, r]));
  for (const v of t.VOCABULARY) has(v.vocabulary_concept_id, v.__where, 'vocabulary_concept_id');
  for (const d of t.DOMAIN) has(d.domain_concept_id, d.__where, 'domain_concept_id');
  for (const c of t.CONCEPT_CLASS) has(c.concept_class_concept_id, c.__where, 'concept_class_concept_id');
  for (const r of t.RELATIONSHIP) {
    has(r.relationship_concept_id, r.__where, 'relationship_concept_id');
    if (!['0', '1'].includes(r.is_hierarchical) || !['0', '1'].includes(r.defines_ancestry)) {
      fail(`${r.__where}: is_hierarchical/defines_ancestry must be '0' or '1'`);
    }
    const rev = rels.get(r.reverse_relationship_id);
    if (!rev || rev.reverse_relationship_id !== r.relationship_id) fail(`${r.__where}: reverse relationship missing`);
  }
  const none = t.VOCABULARY.find((v) => v.vocabulary_id === 'None');
  if (!none || none.vocabulary_concept_id !== '44819096') fail('VOCABULARY: missing the None row (44819096)');
  for (const c of t.CONCEPT) {
    if (!vocabs.has(c.vocabulary_id)) fail(`${c.__where}: vocabulary_id '${c.vocabulary_id}' not in VOCABULARY`);
    if (!domains.has(c.domain_id)) fail(`${c.__where}: domain_id '${c.domain_id}' not in DOMAIN`);
    if (!classes.has(c.concept_class_id)) fail(`${c.__where}: concept_class_id '${c.concept_class_id}' not in CONCEPT_CLASS`);
  }

  const crKeys = new Set();
  for (const r of t.CONCEPT_RELATIONSHIP) {
    has(r.concept_id_1, r.__where, 'concept_id_1'); has(r.concept_id_2, r.__where, 'concept_id_2');
    if (!rels.has(r.relationship_id)) fail(`${r.__where}: relationship_id '${r.relationship_id}' not in RELATIONSHIP`);
    for (const k of ['valid_start_date', 'valid_end_date']) if (!isDate(r[k])) fail(`${r.__where}: bad ${k}`);
    if (!['D', 'U', ''].includes(r.invalid_reason)) fail(`${r.__where}: bad invalid_reason`);
    const key = `${r.concept_id_1}\t${r.relationship_id}\t${r.concept_id_2}`;
    if (crKeys.has(key)) fail(`${r.__where}: duplicate relationship`);
    crKeys.add(key);
  }
  for (const r of t.CONCEPT_RELATIONSHIP) {
    const rev = rels.get(r.relationship_id)?.reverse_relationship_id;
    if (!crKeys.has(`${r.concept_id_2}\t${rev}\t${r.concept_id_1}`)) fail(`${r.__where}: no reverse '${rev}' row`);
    if (r.relationship_id === 'Maps to' && r.invalid_reason === '') {
      const target = concepts.get(r.concept_id_2);
      if (target && target.standard_concept !== 'S') fail(`${r.__where}: 'Maps to' target ${r.concept_id_2} is not standard`);
    }
  }
  for (const c of t.CONCEPT) {
    if (c.standard_concept === 'S' && !crKeys.has(`${c.concept_id}\tMaps to\t${c.concept_id}`)) {
      fail(`${c.__where}: standard concept without 'Maps to' itself`);
    }
  }

  // ancestor table must equal the closure recomputed from the files
  for (const a of t.CONCEPT_ANCESTOR) {
    has(a.ancestor_concept_id, a.__where, 'ancestor_concept_id'); has(a.descendant_concept_id, a.__where, 'descendant_concept_id');
  }
  const expected = computeAncestors(t.CONCEPT, t.CONCEPT_RELATIONSHIP, t.RELATIONSHIP);
  const key = (a) => `${a.ancestor_concept_id}\t${a.descendant_concept_id}\t${a.min_levels_of_separation}\t${a.max_levels_of_separation}`;
  const got = new Set(t.CONCEPT_ANCESTOR.map(key));
  const want = new Set(expected.map(key));
  const missing = [...want].filter((k) => !got.has(k));
  const surplus = [...got].filter((k) => !want.has(k));
  if (missing.length || surplus.length || got.size !== t.CONCEPT_ANCESTOR.length) {
    fail(`CONCEPT_ANCESTOR differs from the closure: ${missing.length} missing, ${surplus.length} extra `
      + `(e.g. ${[...missing, ...surplus].slice(0, 3).join(' | ')})`);
  }

  for (const s of t.CONCEPT_SYNONYM) {
    has(s.concept_id, s.__where, 'concept_id');
    if (!isId(s.language_concept_id)) fail(`${s.__where}: language_concept_id not numeric`);
    if (!s.concept_synonym_name) fail(`${s.__where}: empty synonym`);
  }
  for (const d of t.DRUG_STRENGTH) {
    has(d.drug_concept_id, d.__where, 'drug_concept_id'); has(d.ingredient_concept_id, d.__where, 'ingredient_concept_id');
    for (const k of ['amount_unit_concept_id', 'numerator_unit_concept_id', 'denominator_unit_concept_id']) {
      if (d[k]) has(d[k], d.__where, k);
    }
    for (const k of ['valid_start_date', 'valid_end_date']) if (!isDate(d[k])) fail(`${d.__where}: bad ${k}`);
    const ing = concepts.get(d.ingredient_concept_id);
    if (ing && ing.concept_class_id !== 'Ingredient') fail(`${d.__where}: ingredient_concept_id is not an Ingredient`);
  }

  const clinical = t.CONCEPT.filter((c) => c.domain_id !== 'Metadata');
  if (t.CONCEPT.length < MIN_CONCEPTS) fail(`only ${t.CONCEPT.length} concepts, need ${MIN_CONCEPTS}`);

  const perVocab = {};
  for (const c of t.CONCEPT) perVocab[c.vocabulary_id] = (perVocab[c.vocabulary_id] ?? 0) + 1;
  return { counts: Object.fromEntries(Object.keys(COLUMNS).map((k) => [k, t[k].length])), perVocab,
    clinical: clinical.length };
}

// ---------------------------------------------------------------- main

const checkOnly = process.argv.includes('--check');
if (!checkOnly) build();
const summary = errors.length ? null : check();
if (errors.length) {
  console.error(`demo vocabulary: ${errors.length} problem(s)`);
  for (const e of errors.slice(0, 50)) console.error(`  - ${e}`);
  process.exit(1);
}
console.log(`demo vocabulary ${checkOnly ? 'checked' : 'built and checked'}: ${JSON.stringify(summary.counts)}`);
console.log(`concepts per vocabulary: ${JSON.stringify(summary.perVocab)}`);
