/** Every tool the MCP server lists, in the order it lists them: the hosted service's eleven, then omopterm's own. */
import type { McpTool } from './tool-definition.js';
import { OMOPHUB_TOOLS } from './omophub-tools.js';

export const MCP_TOOLS: readonly McpTool[] = [...OMOPHUB_TOOLS];
