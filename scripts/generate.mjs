// Runs `prisma generate` without the schema engine: Prisma Client 7 needs no engine binary,
// and the CLI only checks that PRISMA_SCHEMA_ENGINE_BINARY names an existing file.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
execFileSync('npx', ['prisma', 'generate'], { stdio: 'inherit', env });
