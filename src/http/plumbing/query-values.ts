/** Parsing of query values the clients send as comma-joined lists (Node sends spaces as '+'): src/services/list-field.ts. */
export { csvList } from '../../services/list-field.js';
