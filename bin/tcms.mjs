#!/usr/bin/env node
// The operator command (decisions §2), run from the build in dist/ (made by `npm install`; made
// again here only when the sources changed since).
import { ensureBuilt } from '../scripts/build.mjs';

await ensureBuilt();
const { runCli } = await import('../dist/tcms.mjs');
const exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
// Exit explicitly: a database driver may keep handles open after close().
process.exit(exitCode);
