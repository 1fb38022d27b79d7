import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes one JSON line per test file to $TCMS_FILE_TIMES (.ci/run reads them): how long its
 * import took, its hooks (the apps, databases, servers and browsers a file starts) and its tests.
 */
export default class FileTimesReporter implements Reporter {
  onTestModuleEnd(testModule: TestModule): void {
    const output = process.env.TCMS_FILE_TIMES;
    if (!output) return;
    const diagnostic = testModule.diagnostic();
    let inTests = 0;
    for (const test of testModule.children.allTests()) inTests += test.diagnostic()?.duration ?? 0;
    const line = {
      file: path.relative(process.cwd(), testModule.moduleId),
      importMs: Math.round(diagnostic.collectDuration),
      hooksMs: Math.round(Math.max(0, diagnostic.duration - inTests)),
      testsMs: Math.round(inTests),
    };
    appendFileSync(output, `${JSON.stringify(line)}\n`);
  }
}
