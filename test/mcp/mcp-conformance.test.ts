/**
 * The MCP conformance suite from npm (@modelcontextprotocol/conformance, server mode) against /mcp, offline: the
 * scenarios that apply to a real server must pass; those that need the suite's test-only tools, resources and prompts
 * (or optional capabilities a terminology server has no use for) are expected failures, each with why — and each must
 * fail for that reason, so a scenario that starts to apply is noticed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { runScenario, startKeyForwarder, type Forwarder } from './conformance-harness.js';

/** Server scenarios a real server passes: lifecycle and sessions, ping, listings, concurrent streams, DNS rebinding. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

/** Scenario → why it fails here, and a pattern of the failure it must show. */
const EXPECTED_FAILURES: Record<string, { why: string; failure: RegExp }> = {
  'logging-set-level': { why: 'no logging capability: tool calls log to the server log, not to the client', failure: /Method not found/ },
  'completion-complete': { why: "no completion capability; the scenario completes the suite's test prompt", failure: /Method not found/ },
  'json-schema-2020-12': { why: 'needs the test-only tool json_schema_2020_12_tool', failure: /json_schema_2020_12_tool/ },
  'resources-read-text': { why: 'needs the test-only resource test://static-text', failure: /test:\/\/static-text/ },
  'resources-read-binary': { why: 'needs the test-only resource test://static-binary', failure: /test:\/\/static-binary/ },
  'resources-templates-read': { why: 'needs the test-only template test://template/{id}/data', failure: /test:\/\/template/ },
  'resources-subscribe': { why: 'no subscriptions: a loaded release never changes', failure: /Method not found/ },
  'resources-unsubscribe': { why: 'no subscriptions: a loaded release never changes', failure: /Method not found/ },
  'prompts-get-simple': { why: 'needs the test-only prompt test_simple_prompt', failure: /test_simple_prompt/ },
  'prompts-get-with-args': { why: 'needs the test-only prompt test_prompt_with_arguments', failure: /test_prompt_with_arguments/ },
  'prompts-get-embedded-resource': { why: 'needs the test-only prompt test_prompt_with_embedded_resource', failure: /test_prompt_with_embedded_resource/ },
  'prompts-get-with-image': { why: 'needs the test-only prompt test_prompt_with_image', failure: /test_prompt_with_image/ },
};

/**
 * Not run: the tools-call-* scenarios (simple-text, image, audio, embedded-resource, mixed-content, with-logging, error,
 * with-progress, sampling, elicitation) and the elicitation-sep* and server-sse-polling ones call the suite's test-only
 * tools (test_simple_text, test_image_content, …), which a terminology server does not have; this server's own tools
 * are tested through the SDK client in mcp-tools.test.ts.
 */

let t: TestServer;
let forwarder: Forwarder;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
  forwarder = await startKeyForwarder(t.port, t.key);
});

afterAll(async () => {
  await forwarder?.close();
  await t?.close();
});

describe('MCP conformance suite (server mode) against /mcp', () => {
  it.each(APPLICABLE)('%s passes', async (scenario) => {
    const run = await runScenario(forwarder.url, scenario);
    expect(run.output, run.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(run.status, run.output).toBe(0);
  });

  it.each(Object.entries(EXPECTED_FAILURES).map(([scenario, { why, failure }]) => [scenario, why, failure] as const))('%s is an expected failure: %s', async (scenario, _why, failure) => {
    const run = await runScenario(forwarder.url, scenario);
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toMatch(failure);
  });
});
