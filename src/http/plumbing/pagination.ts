/** Pagination of the REST lists: the rules live in src/services/pagination.ts (shared with the MCP tools). */
export * from '../../services/pagination.js';
