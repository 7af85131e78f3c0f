/** The synthetic Athena vocabulary generator behind `omopterm synth`. */
export { synthesize, DEFAULT_SEED, type SynthOptions, type SynthResult } from './generate.js';
export { FULL_RELEASE, FULL_VOCABULARY_COUNTS, PER_CONCEPT, conceptsForScale } from './shape.js';
export { FILES } from './writers.js';
export { isValidLoincCode, isValidVerhoeff, ICD10CM_PATTERN, ATC_PATTERN } from './codes.js';
