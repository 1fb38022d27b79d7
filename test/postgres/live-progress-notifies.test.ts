import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newId } from '../../src/kernel/ids.ts';
import { onRunChange, publishRunChange, type RunChange } from '../../src/live/progress-signals.service.ts';
import { useTestApp } from '../support/app.ts';

/**
 * The live-progress fan-out's connection (src/live/progress-fanout.service.ts) runs one statement
 * at a time: changes published while its NOTIFY is on the way go out in the next one. pg warns
 * about a query sent while others wait on the same client, and pg 9 refuses it.
 */

// The app starts this process's fan-out, which publishRunChange goes through.
useTestApp();

describe('live progress fan-out', () => {
  it('sends changes published on successive turns one NOTIFY at a time, and hears each of them back', async () => {
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    onTestFinished(() => {
      process.off('warning', warned);
    });
    const heard = new Set<string>();
    onTestFinished(onRunChange((change) => heard.add(change.runId)));

    const changes: RunChange[] = Array.from({ length: 30 }, () => ({ orgId: newId(), runId: newId(), planId: null }));
    for (const change of changes) {
      publishRunChange(change);
      await nextTurn();
    }

    await expect.poll(() => changes.filter((change) => !heard.has(change.runId)).length, { timeout: 10_000, interval: 20 }).toBe(0);
    expect(warnings.map((warning) => warning.message)).not.toContainEqual(expect.stringContaining('already executing a query'));
  });
});
