import { defineConfig } from 'vitest/config';

// Tests that need a PostgreSQL server (several processes on one database) live in
// test/postgres/ and run only when DATABASE_URL names one; tests of the embedded database's own
// mechanisms live in test/embedded/ and run only without it. .ci/run runs the suite both ways.
const onPostgresServer = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  // graphql ships CommonJS (main) and ESM (module) copies: Vite would take the ESM one for our
  // sources while the dependencies (Pothos, Yoga) load the CommonJS one, as Node does in production;
  // two copies of graphql refuse each other's types. One copy, as in production.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    exclude: onPostgresServer ? ['test/embedded/**'] : ['test/postgres/**'],
    // Test files mostly wait on databases and child processes: three at once keep 2 cores busy
    // (measured in issue 29: 2,423 s for both suites against 4,101 s with the default).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Password hashes at the cheapest argon2id cost: production's is tested in test/rest/password-hashing.test.ts.
    env: {
      NODE_ENV: 'test',
      TCMS_LOG_REQUESTS: 'false',
      TCMS_LOG_LEVEL: 'silent',
      TCMS_PASSWORD_MEMORY_KIB: '1024',
      TCMS_PASSWORD_PASSES: '1',
    },
  },
});
