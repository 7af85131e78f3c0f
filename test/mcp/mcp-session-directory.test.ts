/**
 * The record of open MCP sessions (src/http/mcp-sessions.ts, docs/mcp.md "Sessions"): a session is its key's; a key
 * keeps at most 16, the least recently used one closed to make room; a session idle for an hour is closed.
 */
import { describe, expect, it } from 'vitest';
import { LocalMcpSessions } from '../../src/http/mcp-sessions.js';

describe('LocalMcpSessions', () => {
  it("answers for the key's own sessions only", async () => {
    const sessions = new LocalMcpSessions();
    await sessions.open('s1', 'k1');
    expect(await sessions.touch('s1', 'k1')).toBe(true);
    expect(await sessions.touch('s1', 'k2')).toBe(false);
    expect(await sessions.touch('s2', 'k1')).toBe(false);
    await sessions.end('s1');
    expect(await sessions.touch('s1', 'k1')).toBe(false);
  });

  it('keeps 16 sessions per key, closing the least recently used to open a 17th', async () => {
    let clock = 0;
    const sessions = new LocalMcpSessions(() => clock);
    for (let i = 1; i <= 16; i++) {
      clock += 1000;
      await sessions.open(`s${i}`, 'k1');
    }
    await sessions.open('other', 'k2');
    clock += 1000;
    expect(await sessions.touch('s1', 'k1')).toBe(true); // s1 is now the most recently used; s2 the least
    clock += 1000;
    await sessions.open('s17', 'k1');
    expect(await sessions.touch('s2', 'k1')).toBe(false);
    for (const id of ['s1', 's3', 's16', 's17']) expect(await sessions.touch(id, 'k1'), id).toBe(true);
    expect(await sessions.touch('other', 'k2')).toBe(true);
  });

  it('closes a session idle for more than an hour', async () => {
    let clock = 0;
    const sessions = new LocalMcpSessions(() => clock);
    await sessions.open('s1', 'k1');
    await sessions.open('s2', 'k1');
    clock += 59 * 60_000;
    expect(await sessions.touch('s1', 'k1')).toBe(true);
    clock += 2 * 60_000;
    expect(await sessions.touch('s1', 'k1')).toBe(true);
    expect(await sessions.touch('s2', 'k1')).toBe(false);
  });
});
