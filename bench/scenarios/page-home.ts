/**
 * GET / signed in: the browser's home page (releases with their counts, the search box), through a session cookie.
 */
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'page-home',
  description: 'GET / (browser home page) with a signed-in session',
  prepare(ctx) {
    if (!ctx.pageHeaders) throw new Error('no browser session (the harness signs in before preparing page scenarios)');
    const request = { path: '/', headers: ctx.pageHeaders };
    return () => request;
  },
};
export default scenario;
