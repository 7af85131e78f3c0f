/**
 * fhir-diff-system without `remapped` (type=added,deprecated,reinstated,renamed,re-domained): the
 * same pages without the `Maps to` reads, the cost of the walk itself.
 */
import { DIFF_CHANGE_TYPES } from '../../src/services/terminology/release-diff.js';
import { cycle, type Scenario } from '../lib/scenario.js';
import { diffSystemRequests } from './fhir-diff-system.js';

const scenario: Scenario = {
  name: 'fhir-diff-system-no-remap',
  description: 'fhir-diff-system with every change type but remapped (no Maps to reads): first pages and deep cursors',
  prepare(ctx) {
    return cycle(diffSystemRequests(ctx, new Set(DIFF_CHANGE_TYPES.filter((t) => t !== 'remapped'))), ctx.random);
  },
};
export default scenario;
