/** Every tool the MCP server lists, in the order it lists them: the hosted service's eleven, then omopterm's own. */
import { CONCEPT_SET_AND_RELEASE_TOOLS } from './concept-set-tools.js';
import { OMOPHUB_TOOLS } from './omophub-tools.js';
import { TERMINOLOGY_TOOLS } from './terminology-tools.js';
import type { McpTool } from './tool-definition.js';

export const MCP_TOOLS: readonly McpTool[] = [...OMOPHUB_TOOLS, ...TERMINOLOGY_TOOLS, ...CONCEPT_SET_AND_RELEASE_TOOLS];
