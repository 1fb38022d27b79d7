import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../support/processes.ts';

/**
 * The architecture's rules (.dependency-cruiser.cjs, which `npm run lint` holds the code to in CI)
 * each refuse a deliberate violation: a house of a few files written here breaks every rule once,
 * and dependency-cruiser, with the project's own rule file, must name each break.
 */

const run = promisify(execFile);
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');
const RULES = path.join(ROOT, '.dependency-cruiser.cjs');

type Violation = { rule: { name: string }; from: string; to: string };

async function violations(cwd: string, paths: string[]): Promise<Violation[]> {
  const output = await run(DEPCRUISE, [...paths, '--config', RULES, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 }).then(
    (done) => done.stdout,
    // depcruise exits non-zero when it finds violations; its report is still on stdout.
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

let house: string;

/** Files of the deliberately broken house: `path` → what it imports. */
const FILES: Record<string, string[]> = {
  'src/kernel/errors.ts': ['../foundation/context.ts'],
  'src/foundation/context.ts': ['../runs/runs.service.ts'],
  'src/runs/runs.service.ts': ['./internal/engine.ts', '../plans/plans.service.ts'],
  'src/runs/internal/engine.ts': [],
  'src/plans/plans.service.ts': ['../runs/internal/engine.ts'],
  'src/plans/progress.service.ts': ['../runs/helpers.service.ts'],
  'src/runs/helpers.service.ts': ['../plans/plans.service.ts'],
  'src/suites/suites.service.ts': ['../../rest/router.ts', './tree.ts'],
  'src/suites/tree.ts': ['./suites.service.ts'],
  'rest/router.ts': ['../src/runs/internal/engine.ts'],
};

beforeAll(async () => {
  house = await mkdtemp(path.join(os.tmpdir(), 'tcms-boundaries-'));
  await writeFile(
    path.join(house, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }),
  );
  for (const [file, imports] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(house, file)), { recursive: true });
    const lines = imports.map(
      (target, index) => `import * as imported${index} from '${target}';\nexport const uses${index} = imported${index};`,
    );
    await writeFile(path.join(house, file), `${lines.join('\n')}\nexport const here = '${file}';\n`);
  }
});
afterAll(() => rm(house, { recursive: true, force: true }));

it('refuses each kind of break: upward imports, imports past a door, cycles of files and of modules, transport in the core', {
  timeout: 120_000,
}, async () => {
  const found = (await violations(house, ['src', 'rest'])).map(
    (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
  );
  expect(found).toEqual(
    expect.arrayContaining([
      'kernel-imports-only-kernel: src/kernel/errors.ts → src/foundation/context.ts',
      'foundation-imports-no-domain: src/foundation/context.ts → src/runs/runs.service.ts',
      'domain-entered-through-its-door: src/plans/plans.service.ts → src/runs/internal/engine.ts',
      'transport-enters-domains-through-doors: rest/router.ts → src/runs/internal/engine.ts',
      'core-imports-no-transport: src/suites/suites.service.ts → rest/router.ts',
      'no-cycle: src/suites/suites.service.ts → src/suites/tree.ts',
    ]),
  );
  // plans → runs (helpers) → plans: no file imports itself back, but the two folders do.
  expect(found.some((line) => line.startsWith('no-cycle-between-modules:') && /src\/(plans|runs)/.test(line))).toBe(true);
});
