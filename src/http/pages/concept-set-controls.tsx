/**
 * The "add to concept set" control that search results and concept pages carry: a small POST form (CSRF token
 * included) to the builder, with the three flags of an ATLAS expression item; the builder (concept-set-pages.tsx)
 * takes it and sends the browser back where it was.
 */
import type { VNode } from 'preact';
import { CsrfField } from './layout.js';
import type { PageContext } from './page-context.js';

/** Where the form posts; the builder owns the route. */
export const ADD_TO_SET_PATH = '/concept-set/items';

export function AddToConceptSet({ ctx, conceptId, label, compact = false }: { ctx: PageContext; conceptId: number; label: string; compact?: boolean }): VNode {
  const here = ctx.link(ctx.path, Object.fromEntries(Object.entries(ctx.query).filter(([name]) => name !== 'vocab_release')));
  const id = (flag: string) => `add-${conceptId}-${flag}${compact ? '-c' : ''}`;
  return (
    <form method="post" action={ctx.link(ADD_TO_SET_PATH)} class={compact ? 'add-to-set compact' : 'add-to-set'}>
      <CsrfField ctx={ctx} />
      <input type="hidden" name="concept_id" value={String(conceptId)} />
      <input type="hidden" name="return_to" value={here} />
      <span class="row">
        <input type="checkbox" id={id('desc')} name="include_descendants" value="true" />
        <label for={id('desc')}>descendants</label>
        <input type="checkbox" id={id('mapped')} name="include_mapped" value="true" />
        <label for={id('mapped')}>mapped</label>
        <input type="checkbox" id={id('excl')} name="is_excluded" value="true" />
        <label for={id('excl')}>exclude</label>
        <button type="submit" class="small" aria-label={`Add to set: ${label} (${conceptId})`}>
          Add to set
        </button>
      </span>
    </form>
  );
}
