// Vitest global setup: the spawned servers of the tests run the production build (dist/), so it
// is brought up to date once before any test file runs.
// @ts-expect-error the build script is plain JavaScript without type declarations
import { ensureBuilt } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
