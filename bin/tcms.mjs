#!/usr/bin/env node
// The operator command (decisions §2). The code is TypeScript, so tsx is registered first.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import(new URL('../app/tcms.ts', import.meta.url).href);
const exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
// Exit explicitly: a database driver may keep handles open after close().
process.exit(exitCode);
