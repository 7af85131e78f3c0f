/**
 * The workers' shared decisions through the primary (src/http/cluster/primary-link.ts, primary-services.ts), over an
 * in-memory channel standing for the cluster IPC: two workers draw on one token bucket per key (the rule of
 * docs/operations.md "Limits": a 2/s key makes 2 back-to-back requests, then one every 500 ms, whichever worker asks);
 * a turn's admissions travel as one message; a fast key's tokens are leased, a lease at a time, without leaving the
 * bound of rate × seconds + one burst; an MCP session opened through one worker is found through the other; with the
 * primary gone every decision fails closed.
 */
import { describe, expect, it } from 'vitest';
import type { PrimaryMessage, WorkerMessage } from '../../src/http/cluster/cluster-messages.js';
import { LEASE_SECONDS, LEASE_TTL_MS, PrimaryLink, type PrimaryChannel } from '../../src/http/cluster/primary-link.js';
import { PrimaryServices } from '../../src/http/cluster/primary-services.js';
import { ServiceError } from '../../src/services/errors.js';

/** Workers linked to one primary; answers arrive asynchronously, as over IPC. `sent` logs every worker message. */
function cluster(workers: number, now: () => number) {
  const services = new PrimaryServices(now);
  const sent: WorkerMessage[] = [];
  const links = Array.from({ length: workers }, () => {
    let deliver: (m: PrimaryMessage) => void = () => {};
    const channel: PrimaryChannel = {
      send: (message) => {
        sent.push(message);
        const answer = services.answer(message);
        if (answer) setImmediate(() => deliver(answer));
      },
      onMessage: (listener) => (deliver = listener),
    };
    return new PrimaryLink(channel, now);
  });
  return { links, sent };
}

describe('rate decisions through the primary', () => {
  it('one bucket per key whichever worker asks: 2 back-to-back, then one per 500 ms', async () => {
    let clock = 1_000_000;
    const { links } = cluster(2, () => clock);
    const [a, b] = links;
    const take = (link: PrimaryLink) => link.takeToken('key:k1', 2).then((d) => d.allowed);
    expect([await take(a!), await take(b!), await take(a!), await take(b!)]).toEqual([true, true, false, false]);
    clock += 500;
    expect([await take(b!), await take(a!)]).toEqual([true, false]);
    clock += 500;
    expect([await take(a!), await take(b!)]).toEqual([true, false]);
    // Another key has its own bucket.
    expect(await a!.takeToken('key:k2', 2).then((d) => d.allowed)).toBe(true);
  });

  it('carries the whole decision back (limit, remaining, reset, retry-after)', async () => {
    const clock = 1_700_000_000_000;
    const { links } = cluster(1, () => clock);
    const first = await links[0]!.takeToken('key:k', 4);
    expect(first).toEqual({ allowed: true, limit: 4, remaining: 3, reset_epoch_seconds: Math.ceil((clock + 250) / 1000), retry_after_seconds: 0 });
    for (let i = 0; i < 3; i++) await links[0]!.takeToken('key:k', 4);
    const refused = await links[0]!.takeToken('key:k', 4);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retry_after_seconds: 1 });
  });

  it("sends a turn's admissions as one message", async () => {
    const { links, sent } = cluster(1, () => 0);
    const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => links[0]!.takeToken(`ip:10.0.0.${i}`, 20)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ t: 'rate' });
    expect((sent[0] as Extract<WorkerMessage, { t: 'rate' }>).q).toHaveLength(10);
  });

  it('leases a fast key\'s tokens: never more than rate × seconds + one burst over both workers, nearly all of it used', async () => {
    const RATE = 1000; // leases of RATE × LEASE_SECONDS = 10 tokens
    expect(RATE * LEASE_SECONDS).toBe(10);
    let clock = 5_000_000;
    const { links } = cluster(2, () => clock);
    let allowed = 0;
    const round = async (requests: number) => {
      for (let i = 0; i < requests; i++) if ((await links[i % 2]!.takeToken('key:fast', RATE)).allowed) allowed++;
    };
    await round(1400);
    // The burst is RATE tokens; a worker may be left holding up to 9 leased tokens it has not spent.
    expect(allowed).toBeLessThanOrEqual(RATE);
    expect(allowed).toBeGreaterThanOrEqual(RATE - 2 * 9);
    clock += 500;
    await round(1000);
    expect(allowed).toBeLessThanOrEqual(RATE + RATE * 0.5);
    expect(allowed).toBeGreaterThanOrEqual(RATE + RATE * 0.5 - 2 * 9);
  });

  it('answers all the admissions of a turn waiting on a fast key with one lease, and drops a lease after LEASE_TTL_MS', async () => {
    let clock = 0;
    const { links, sent } = cluster(1, () => clock);
    const link = links[0]!;
    const first = await Promise.all(Array.from({ length: 300 }, () => link.takeToken('key:fast', 1000)));
    expect(first.every((d) => d.allowed)).toBe(true);
    expect(sent).toHaveLength(1);
    // The last of them saw 700 left in the bucket and none in the lease.
    expect(first.map((d) => d.remaining).sort((a, b) => a - b)[0]).toBe(700);
    expect((await link.takeToken('key:fast', 1000)).allowed).toBe(true); // a new lease of 10
    expect(sent).toHaveLength(2);
    expect((await link.takeToken('key:fast', 1000)).allowed).toBe(true); // from it
    expect(sent).toHaveLength(2);
    clock += LEASE_TTL_MS;
    expect((await link.takeToken('key:fast', 1000)).allowed).toBe(true); // the lease had expired: asked again
    expect(sent).toHaveLength(3);
  });

  it('fails closed when the primary is gone: waiting and later decisions are a 503', async () => {
    let deliver: (m: PrimaryMessage) => void = () => {};
    const link = new PrimaryLink({ send: () => {}, onMessage: (l) => (deliver = l) });
    void deliver;
    const waiting = link.takeToken('key:k', 2);
    link.disconnected();
    await expect(waiting).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    const later = link.takeToken('key:k', 2);
    await expect(later).rejects.toBeInstanceOf(ServiceError);
    await expect(link.mcpSessions.touch('s', 'k')).rejects.toMatchObject({ status: 503 });
  });
});

describe('MCP sessions through the primary', () => {
  it('a session opened through one worker is found through the other, for its key only, until it is ended', async () => {
    const { links } = cluster(2, Date.now);
    const [a, b] = links;
    await a!.mcpSessions.open('session-1', 'key-1');
    expect(await b!.mcpSessions.touch('session-1', 'key-1')).toBe(true);
    expect(await b!.mcpSessions.touch('session-1', 'key-2')).toBe(false);
    expect(await a!.mcpSessions.touch('session-unknown', 'key-1')).toBe(false);
    await b!.mcpSessions.end('session-1');
    expect(await a!.mcpSessions.touch('session-1', 'key-1')).toBe(false);
  });
});
