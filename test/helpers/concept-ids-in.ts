/** Every concept_id anywhere in a JSON answer (the licence tests look for a restricted concept in whole answers). */
export function conceptIdsIn(body: unknown): number[] {
  const out: number[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'concept_id' && typeof x === 'number') out.push(x);
        else walk(x);
      }
    }
  };
  walk(body);
  return out;
}
