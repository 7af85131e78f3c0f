/**
 * The MCP server through the SDK's own Client, on both transports (stdio: the real `omopterm mcp` process; Streamable
 * HTTP: /mcp on a running server): it lists its tools, resources and prompts; every tool answers with the REST route's
 * `data` for the same question (asked of the same data directory in the same test); bad arguments are tool errors with
 * the REST messages; a key without CPT4 validation never receives a CPT4 concept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { connectHttp, connectStdio, structuredOf, toolErrorOf, type McpTestClient, type TransportKind } from './mcp-clients.js';
import { BAD_ARGUMENT_CASES, CPT4_EXPLICIT_CASES, CPT4_IMPLICIT_CALLS, OWN_TOOL_CASES, TOOL_CASES, withoutTimings, type RestCall } from './tool-cases.js';

/** The hosted OMOPHub MCP server's tools (OMOPHub/omophub-mcp src/tools), which must all be here under these names. */
const HOSTED_TOOLS = [
  'search_concepts',
  'semantic_search',
  'find_similar_concepts',
  'get_concept',
  'get_concept_by_code',
  'explore_concept',
  'map_concept',
  'get_hierarchy',
  'list_vocabularies',
  'fhir_resolve',
  'fhir_resolve_codeable_concept',
];

let t: TestServer;
let previousTlsSetting: string | undefined;

beforeAll(async () => {
  // The HTTP client is the SDK's fetch-based transport, which has no option to trust one self-signed certificate;
  // this test file runs in its own forked worker (vitest pool 'forks'), so the setting stays here.
  previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  // Two releases (the same files) for the tools that compare releases.
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.1' },
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
    ],
  });
});

afterAll(async () => {
  await t?.close();
  if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
});

/** The text of a resource read (every omopterm resource is text). */
function textOf(read: { contents: ReadonlyArray<object> }): string {
  return String((read.contents[0] as { text?: unknown }).text);
}

async function rest(call: RestCall, key?: string) {
  const res = await t.request(call.path, { method: call.method ?? 'GET', body: call.body, key });
  return res;
}

async function restData(call: RestCall, key?: string): Promise<unknown> {
  const res = await rest(call, key);
  expect(res.status, `${call.path}: ${res.text}`).toBe(200);
  return res.body.data;
}

function connect(kind: TransportKind, key: string): Promise<McpTestClient> {
  return kind === 'stdio' ? connectStdio(t.dataDir, key) : connectHttp(t.url, key);
}

const TRANSPORTS: TransportKind[] = ['stdio', 'http'];

describe.each(TRANSPORTS)('MCP over %s', (kind) => {
  let mcp: McpTestClient;
  let validated: McpTestClient;

  beforeAll(async () => {
    mcp = await connect(kind, t.key);
    validated = await connect(kind, await t.createKey({ cpt4_validated_until: '2999-12-31' }));
  });
  afterAll(async () => {
    await mcp?.close();
    await validated?.close();
  });

  it('initializes as omopterm with tools, resources and prompts', () => {
    expect(mcp.client.getServerVersion()?.name).toBe('omopterm');
    const capabilities = mcp.client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.prompts).toBeDefined();
  });

  it("lists the hosted service's tools by name, each with an input and an output schema", async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(HOSTED_TOOLS));
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('lists the resources and prompts', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['omopterm://releases', 'omopterm://vocabularies']));
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('omopterm://vocabularies/{vocabulary_id}');
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['map-source-term', 'build-phenotype-concept-set', 'explore-concept']));
  });

  it('lists omopterm\'s own tools besides the hosted ones', async () => {
    const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(OWN_TOOL_CASES.map((c) => c.tool)));
  });

  it('every listed tool is called below with valid and with invalid arguments', async () => {
    const names = (await mcp.client.listTools()).tools.map((tool) => tool.name).sort();
    expect([...new Set([...TOOL_CASES, ...OWN_TOOL_CASES].map((c) => c.tool))].sort()).toEqual(names);
    expect([...new Set(BAD_ARGUMENT_CASES.map((c) => c.tool))].sort()).toEqual(names);
  });

  it.each([...TOOL_CASES, ...OWN_TOOL_CASES].map((c) => [c.tool, JSON.stringify(c.args), c] as const))('%s %s answers the REST data', async (_tool, _args, c) => {
    const result = (await mcp.client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
    const structured = structuredOf(result);
    expect(structured.meta.vocab_release).toBe('2025.2');
    // Not an empty answer compared with an empty answer: every case finds something.
    expect(JSON.stringify(structured.data)).toMatch(/"(vocabulary_)?concept_id":[1-9]|"(code|outcome|label)":"[^"]+"|"changes":\[|"CONCEPT_ID":[1-9]|"from_total":[1-9]/);
    expect((result.content as Array<{ type: string; text: string }>)[0]!.text.length).toBeGreaterThan(0);
    if (c.fhir) {
      const res = await rest(c.rest as RestCall);
      expect(res.status, res.text).toBe(200);
      c.fhir(structured.data, res.body);
    } else if ('path' in c.rest && typeof c.rest.path === 'string') {
      const res = await rest(c.rest as RestCall);
      expect(res.status, res.text).toBe(200);
      expect(withoutTimings(structured.data)).toEqual(withoutTimings(res.body.data));
      if (res.body.meta.pagination) expect(structured.meta.pagination).toEqual(res.body.meta.pagination);
    } else {
      const parts = c.rest as Record<string, RestCall | null>;
      for (const [path, call] of Object.entries(parts)) {
        const actual = path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], structured.data);
        if (call === null) {
          expect(actual, path).toBeNull();
          continue;
        }
        const expected = (await restData(call)) as Record<string, unknown>;
        const fields = Object.fromEntries(Object.keys(expected).map((k) => [k, (actual as Record<string, unknown>)[k]]));
        expect(withoutTimings(fields), path).toEqual(withoutTimings(expected));
      }
    }
  });

  it.each(BAD_ARGUMENT_CASES.map((c) => [c.tool, JSON.stringify(c.args), c] as const))('%s %s is a tool error with the REST message', async (_tool, _args, c) => {
    const result = (await mcp.client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
    const error = toolErrorOf(result);
    expect(error.code).toBe(c.code);
    if (c.message) expect(error.message).toBe(c.message);
    if (c.rest) {
      const res = await rest(c.rest);
      expect(res.body.error.code).toBe(c.code);
      expect(error.message).toBe(res.body.error.message);
    }
    if (c.fhir) {
      const res = await rest(c.fhir);
      expect(res.body.resourceType).toBe('OperationOutcome');
      expect(error.message).toBe(res.body.issue[0].details.text);
    }
  });

  it('an unknown tool is a tool error naming the tools', async () => {
    const error = toolErrorOf((await mcp.client.callTool({ name: 'drop_tables', arguments: {} })) as CallToolResult);
    expect(error.message).toContain("Unknown tool 'drop_tables'");
    expect(error.message).toContain('search_concepts');
  });

  it.each(CPT4_EXPLICIT_CASES.map((c) => [c.tool, JSON.stringify(c.args), c] as const))(
    'a key without CPT4 validation: %s %s is the REST 403 message; a validated key gets the concept',
    async (_tool, _args, c) => {
      const error = toolErrorOf((await mcp.client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult);
      const res = await rest(c.rest!);
      expect(res.status).toBe(403);
      expect(error).toMatchObject({ code: 'vocabulary_restricted', message: res.body.error.message });
      const allowed = (await validated.client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      expect(JSON.stringify(structuredOf(allowed).data)).toContain('"CPT4"');
    },
  );

  it('a key without CPT4 validation never receives a CPT4 concept from any tool, where a validated key does', async () => {
    let seenByValidated = 0;
    for (const call of [...CPT4_IMPLICIT_CALLS, ...TOOL_CASES, ...OWN_TOOL_CASES]) {
      const result = (await mcp.client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
      const everything = JSON.stringify(result);
      expect(everything, `${call.tool} ${JSON.stringify(call.args)}`).not.toMatch(/"vocabulary_id":"CPT4"|\[CPT4 /);
      expect(everything).not.toContain('2110307');
      const allowed = JSON.stringify(await validated.client.callTool({ name: call.tool, arguments: call.args }));
      if (allowed.includes('"vocabulary_id":"CPT4"')) seenByValidated += 1;
    }
    // The calls do reach CPT4 content: the validated key sees it in the searches and lists.
    expect(seenByValidated).toBeGreaterThanOrEqual(4);
  });

  it('reads the resources: releases, vocabularies (licences applied), one vocabulary and the guides', async () => {
    const releases = JSON.parse(textOf(await mcp.client.readResource({ uri: 'omopterm://releases' })));
    expect(releases).toEqual(await restData({ path: '/v1/vocabularies/releases' }).then((d) => ({ releases: (d as { releases: unknown }).releases, default_release: (d as { default_release: unknown }).default_release })));
    const vocabularies = JSON.parse(textOf(await mcp.client.readResource({ uri: 'omopterm://vocabularies' })));
    const ids = (vocabularies.vocabularies as Array<{ vocabulary_id: string }>).map((v) => v.vocabulary_id);
    expect(ids).toContain('SNOMED');
    expect(ids).not.toContain('CPT4');
    const validatedIds = JSON.parse(textOf(await validated.client.readResource({ uri: 'omopterm://vocabularies' }))).vocabularies.map(
      (v: { vocabulary_id: string }) => v.vocabulary_id,
    );
    expect(validatedIds).toContain('CPT4');
    const snomed = JSON.parse(textOf(await mcp.client.readResource({ uri: 'omopterm://vocabularies/SNOMED' })));
    expect(snomed).toEqual(await restData({ path: '/v1/vocabularies/SNOMED' }));
    await expect(mcp.client.readResource({ uri: 'omopterm://vocabularies/CPT4' })).rejects.toThrow(/vocabulary_restricted/);
    const guide = textOf(await mcp.client.readResource({ uri: 'omopterm://guides/concept-set-format' }));
    expect(guide).toContain('includeDescendants');
    const licences = textOf(await mcp.client.readResource({ uri: 'omopterm://guides/licence-rules' }));
    expect(licences).toContain('CPT4');
    await expect(mcp.client.readResource({ uri: 'omopterm://nothing' })).rejects.toThrow(/Resource not found/);
  });

  it('renders the prompts with their arguments and refuses a missing one', async () => {
    const prompt = await mcp.client.getPrompt({ name: 'map-source-term', arguments: { term: 'DM2 w/o complications' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('DM2 w/o complications');
    await expect(mcp.client.getPrompt({ name: 'explore-concept', arguments: {} })).rejects.toThrow(/concept/);
  });
});
