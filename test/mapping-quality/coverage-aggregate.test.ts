/** Module contract of the load-time coverage accumulator (what GET /v1/mappings/coverage reads). */
import { describe, expect, it } from 'vitest';
import { CoverageAccumulator, UNMAPPED_SAMPLE_LIMIT } from '../../src/mapping-model/coverage-aggregate.js';

describe('CoverageAccumulator', () => {
  it('counts concepts seen before a target vocabulary first appears as unmapped to it', () => {
    const acc = new CoverageAccumulator();
    const none = new Set<string>();
    acc.add('ICD10CM', 'D1', 1, none);
    acc.add('ICD10CM', 'D2', 2, none);
    acc.add('ICD10CM', 'D1', 3, new Set(['SNOMED']));
    acc.add('ICD10CM', 'D2', 4, none);
    acc.add('ICD10CM', 'D3', 5, new Set(['SNOMED', 'LOINC']));
    acc.add('ICD10CM', 'D1', 6, new Set(['LOINC']));
    const cell = (domain: string, target: string) =>
      acc.targetDomains().find((t) => t.domain_id === domain && t.target_vocabulary_id === target);
    expect(cell('D1', 'SNOMED')).toMatchObject({ mapped_concepts: 1, unmapped_concepts: [1, 6] });
    expect(cell('D2', 'SNOMED')).toMatchObject({ mapped_concepts: 0, unmapped_concepts: [2, 4] });
    expect(cell('D3', 'SNOMED')).toMatchObject({ mapped_concepts: 1, unmapped_concepts: [] });
    expect(cell('D1', 'LOINC')).toMatchObject({ mapped_concepts: 1, unmapped_concepts: [1, 3] });
    expect(cell('D2', 'LOINC')).toMatchObject({ mapped_concepts: 0, unmapped_concepts: [2, 4] });
    expect(acc.sourceDomains().map((s) => [s.domain_id, s.source_concepts, s.first_concepts])).toEqual([
      ['D1', 3, [1, 3, 6]],
      ['D2', 2, [2, 4]],
      ['D3', 1, [5]],
    ]);
  });

  it(`keeps at most ${UNMAPPED_SAMPLE_LIMIT} unmapped ids, the lowest`, () => {
    const acc = new CoverageAccumulator();
    for (let id = 1; id <= 250; id++) acc.add('V', 'D', id, id === 200 ? new Set(['T']) : new Set());
    const [cell] = acc.targetDomains();
    expect(cell!.mapped_concepts).toBe(1);
    expect(cell!.unmapped_concepts).toEqual(Array.from({ length: UNMAPPED_SAMPLE_LIMIT }, (_, i) => i + 1));
    expect(acc.sourceDomains()[0]!.source_concepts).toBe(250);
  });
});
