// Builds the service and the `tcms` command into dist/ with esbuild: TypeScript is compiled once
// (by `npm install` and, when the sources changed since, by `npm start`), never on every start.
// Dependencies stay in node_modules; only this repository's code is bundled.
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SOURCES = ['app', 'src', 'rest', 'schema', 'prisma/generated', 'package.json'];
const STAMP = path.join(root, 'dist', '.built');

async function newestSourceTime(entry) {
  const info = await stat(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  const names = await readdir(entry, { recursive: true });
  const times = await Promise.all(names.map(async (name) => (await stat(path.join(entry, name))).mtimeMs));
  return Math.max(info.mtimeMs, ...times);
}

async function isStale() {
  const built = await stat(STAMP).then(
    (info) => info.mtimeMs,
    () => 0,
  );
  const sources = await Promise.all(SOURCES.map((entry) => newestSourceTime(path.join(root, entry))));
  return Math.max(...sources) > built;
}

export async function buildService() {
  await build({
    absWorkingDir: root,
    // The parse workers (src/foundation/uploads/parse-pool.ts) run a bundle of their own beside the server's.
    entryPoints: {
      server: 'app/server.ts',
      tcms: 'app/tcms.ts',
      'report-worker': 'src/result-imports/report-worker.ts',
      'case-file-worker': 'src/test-case-imports/case-file-worker.ts',
    },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  await writeFile(STAMP, new Date().toISOString());
}

/** Builds unless dist/ is newer than every source: a no-op of a few milliseconds when nothing changed. */
export async function ensureBuilt() {
  if (await isStale()) await buildService();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await (process.argv.includes('--if-stale') ? ensureBuilt() : buildService());
}
