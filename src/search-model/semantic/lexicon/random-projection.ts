/**
 * A deterministic sparse random projection of feature maps to a short dense vector for the nearest-neighbour
 * index: each feature adds ±weight to NONZEROS_PER_FEATURE dimensions, positions and signs hashed from its key and
 * a seed string.
 */

import { featureHash, mix32 } from './sparse-features.js';

/** Output dimensions each feature touches (a multiple of 4: one 32-bit hash gives 4 of them). */
export const NONZEROS_PER_FEATURE = 16;
const GOLDEN = 0x9e3779b9;

export class RandomProjection {
  private readonly seed: number;
  /** Per dense input dimension: its NONZEROS_PER_FEATURE output positions and signs. */
  private readonly densePositions: Uint8Array;
  private readonly denseSigns: Float32Array;
  /** Scratch targets of one sparse feature. */
  private readonly positions = new Uint8Array(NONZEROS_PER_FEATURE);
  private readonly signs = new Float32Array(NONZEROS_PER_FEATURE);

  constructor(
    readonly dimension: number,
    readonly denseDimension: number,
    seedText: string,
  ) {
    if (dimension > 128) throw new Error('random projection: at most 128 output dimensions (7-bit positions)');
    this.seed = featureHash(0, seedText);
    this.densePositions = new Uint8Array(denseDimension * NONZEROS_PER_FEATURE);
    this.denseSigns = new Float32Array(denseDimension * NONZEROS_PER_FEATURE);
    for (let d = 0; d < denseDimension; d++) this.targets(~d >>> 0, this.densePositions, this.denseSigns, d * NONZEROS_PER_FEATURE);
  }

  /** Adds the projection of one sparse feature (key, weight) into `out`. */
  addSparse(out: Float32Array | Float64Array, key: number, weight: number): void {
    this.targets(key, this.positions, this.signs, 0);
    for (let j = 0; j < NONZEROS_PER_FEATURE; j++) out[this.positions[j]!]! += weight * this.signs[j]!;
  }

  /** Adds the projection of a dense vector (length denseDimension) scaled by `weight` into `out`. */
  addDense(out: Float32Array | Float64Array, dense: ArrayLike<number>, weight: number): void {
    const positions = this.densePositions;
    const signs = this.denseSigns;
    for (let d = 0, r = 0; d < this.denseDimension; d++) {
      const v = dense[d]! * weight;
      for (let j = 0; j < NONZEROS_PER_FEATURE; j++, r++) out[positions[r]!]! += v * signs[r]!;
    }
  }

  /** The output positions and signs of a key: each byte of a hash is 7 bits of position and a sign bit. */
  private targets(key: number, positions: Uint8Array, signs: Float32Array, offset: number): void {
    for (let block = 0, j = offset; block < NONZEROS_PER_FEATURE / 4; block++) {
      const bits = mix32((key + Math.imul(block + 1, GOLDEN)) ^ this.seed);
      for (let shift = 0; shift < 32; shift += 8, j++) {
        const byte = (bits >>> shift) & 0xff;
        positions[j] = (byte >>> 1) % this.dimension;
        signs[j] = byte & 1 ? 1 : -1;
      }
    }
  }
}
