// Builds the service and the `tcms` command into dist/ with esbuild: TypeScript is compiled once
// (by `npm install` and, when the sources changed since, by `npm start`), never on every start.
// Dependencies stay in node_modules; only this repository's code is bundled. Beside them, the
// command-line client a CI job installs from the service, which bundles everything it needs.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { create as createTar } from 'tar';

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

const CLI_ENTRY = 'app/cli-package/tcms-cli.ts';
/** The client's package as it is packed: its manifest, its one bundled file, the licenses of what that bundles. */
const CLI_DIR = path.join(root, 'dist', 'tcms-cli');
const CLI_FILES = ['package.json', 'tcms.mjs', 'LICENSES.md'];
/** The packed client, served by rest/downloads.ts under the same names. */
const DOWNLOADS = path.join(root, 'dist', 'downloads');
/** The files the last client bundle was made of (esbuild's metafile), for its staleness check. */
const CLI_INPUTS = path.join(root, 'dist', '.tcms-cli-inputs.json');
/** The date npm gives every entry of a package it packs: the same files pack to the same bytes. */
const NPM_PACK_MTIME = new Date('1985-10-26T08:15:00.000Z');

const mtimeOf = (file) =>
  stat(file).then(
    (info) => info.mtimeMs,
    () => undefined,
  );

/** True when a tarball is missing, or a file the client was made of (or this script) changed since it was packed. */
async function cliIsStale(tarballs) {
  const inputs = await readFile(CLI_INPUTS, 'utf8').then(JSON.parse, () => null);
  if (!inputs) return true;
  const packed = await Promise.all(tarballs.map(mtimeOf));
  const sources = await Promise.all([...inputs, 'scripts/build.mjs'].map((input) => mtimeOf(path.join(root, input))));
  return [...packed, ...sources].includes(undefined) || Math.max(...sources) > Math.min(...packed);
}

/** esbuild's target for the oldest Node.js that `engines` admits (">=20.19" → "node20.19"). */
function nodeTarget(engines) {
  const oldest = /^>=\s*(\d+(?:\.\d+)*)$/.exec(engines.node)?.[1];
  if (!oldest) throw new Error(`package.json engines.node must read ">=x.y", not "${engines.node}"`);
  return `node${oldest}`;
}

/** Bundles the client, its dependencies included, into one file; answers the files it was made of. */
async function bundleCli(target) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { tcms: CLI_ENTRY },
    outdir: CLI_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target,
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(metafile.inputs);
}

/** The folder of the package an input comes from (the innermost node_modules/…), or undefined for our own code. */
const packageDirOf = (input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/** The license texts of the packages bundled in: their terms (MIT) ask that the notice travels with the code. */
async function bundledLicenses(inputs) {
  const packageDirs = [...new Set(inputs.map(packageDirOf).filter(Boolean))].sort();
  const sections = await Promise.all(
    packageDirs.map(async (dir) => {
      const { name, version } = JSON.parse(await readFile(path.join(root, dir, 'package.json'), 'utf8'));
      const license = (await readdir(path.join(root, dir))).find((file) => /^licen[cs]e/i.test(file));
      return `## ${name} ${version}\n\n${license ? await readFile(path.join(root, dir, license), 'utf8') : '(no license file)\n'}`;
    }),
  );
  return `# Packages bundled into tcms.mjs\n\n${sections.join('\n')}`;
}

const cliManifest = (service) => ({
  name: 'tcms-cli',
  version: service.version,
  description: 'Uploads test runner reports to a tcms server: the client the server serves at /downloads/tcms-cli.tgz',
  license: service.license,
  type: 'module',
  bin: { tcms: 'tcms.mjs' },
  engines: service.engines,
});

/**
 * Packs the client's files under package/, as npm packs, into each tarball: written aside, then
 * renamed, so that a server never reads half of one.
 */
async function packCli(tarballs) {
  await mkdir(DOWNLOADS, { recursive: true });
  const options = { gzip: true, cwd: CLI_DIR, prefix: 'package', portable: true, mtime: NPM_PACK_MTIME };
  await Promise.all(
    tarballs.map(async (tarball) => {
      const partial = `${tarball}.${process.pid}.partial`;
      await createTar({ ...options, file: partial }, CLI_FILES);
      await rename(partial, tarball);
    }),
  );
}

/**
 * The client a CI job installs from the service (`npx --yes "$TCMS_URL/downloads/tcms-cli.tgz"`):
 * one bundled file with no dependency to fetch, as `tcms-cli.tgz` and `tcms-cli-<version>.tgz`.
 * Skipped when nothing it is made of changed since it was packed.
 */
async function buildCliPackage() {
  const service = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const tarballs = ['tcms-cli.tgz', `tcms-cli-${service.version}.tgz`].map((name) => path.join(DOWNLOADS, name));
  if (!(await cliIsStale(tarballs))) return;
  const inputs = await bundleCli(nodeTarget(service.engines));
  await writeFile(path.join(CLI_DIR, 'package.json'), `${JSON.stringify(cliManifest(service), null, 2)}\n`);
  await writeFile(path.join(CLI_DIR, 'LICENSES.md'), await bundledLicenses(inputs));
  await packCli(tarballs);
  await writeFile(CLI_INPUTS, JSON.stringify(inputs));
}

/**
 * The service's bundles. Split at dynamic imports: the server's entry binds its port before it
 * imports the app (app/server.ts), and code the entries share lives in chunks beside them, loaded
 * once. Chunks of an earlier build that this one no longer writes are removed.
 */
async function bundleService() {
  const { metafile } = await build({
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
    splitting: true,
    chunkNames: 'chunk-[hash]',
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Stack traces need the mappings only: with --enable-source-maps (`npm start`), Node.js keeps
    // every loaded map in memory, and the sources' text would double our code's share of the heap.
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  const written = new Set(Object.keys(metafile.outputs).map((output) => path.basename(output)));
  const stale = (await readdir(path.join(root, 'dist'))).filter((name) => /^chunk-.*\.mjs(\.map)?$/.test(name) && !written.has(name));
  await Promise.all(stale.map((name) => rm(path.join(root, 'dist', name), { force: true })));
}

/** Where the installed PGlite keeps its package.json (its `exports` do not list it). */
const pgliteManifest = () => path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json');

/**
 * An empty embedded database, made by the installed PGlite (initdb, then a clean shut-down), that
 * the server copies into a new data directory instead of running initdb, which takes most of a
 * first start (src/kernel/database/embedded.ts). Its name carries PGlite's version: the server
 * takes only the one of the PGlite it runs, and another version makes its own. Made once, aside,
 * then renamed into place.
 */
async function buildEmptyDatabase() {
  const { version } = JSON.parse(await readFile(pgliteManifest(), 'utf8'));
  const name = `pgdata-template-${version}`;
  const target = path.join(root, 'dist', name);
  // Those of other PGlite versions go; one of this version being made by another build stays.
  const others = (await readdir(path.join(root, 'dist')).catch(() => [])).filter(
    (each) => each.startsWith('pgdata-template-') && each !== name && !each.startsWith(`${name}.`),
  );
  await Promise.all(others.map((other) => rm(path.join(root, 'dist', other), { recursive: true, force: true })));
  if ((await mtimeOf(path.join(target, 'PG_VERSION'))) !== undefined) return;
  const { PGlite } = await import('@electric-sql/pglite');
  const partial = `${target}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  // PGlite makes only the last directory of the path: on a fresh checkout dist/ may not exist yet.
  await mkdir(path.dirname(partial), { recursive: true });
  const database = await PGlite.create(partial);
  await database.close();
  // Another build that made it meanwhile made the same.
  await rename(partial, target).catch(() => rm(partial, { recursive: true, force: true }));
}

export async function buildService() {
  await Promise.all([bundleService(), buildCliPackage(), buildEmptyDatabase()]);
  await writeFile(STAMP, new Date().toISOString());
}

/** Builds unless dist/ is newer than every source: a no-op of a few milliseconds when nothing changed. */
export async function ensureBuilt() {
  if (await isStale()) await buildService();
  else await buildEmptyDatabase();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await (process.argv.includes('--if-stale') ? ensureBuilt() : buildService());
}
