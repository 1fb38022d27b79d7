import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/kernel/database/migrator.ts';
import { openPgConnection } from '../../src/kernel/database/sql-connection.ts';
import { freshServerDatabase } from '../support/databases.ts';

// On the embedded database a statement holds the event loop until it ends: only a server's wait can be named while it lasts.
describe('a migration that takes long', { timeout: 60_000 }, () => {
  it('is named while start-up waits for it, the first one only', async () => {
    const database = await freshServerDatabase(process.env.DATABASE_URL!);
    const directory = await mkdtemp(path.join(os.tmpdir(), 'tcms-slow-migrations-'));
    const migrations = {
      '001_quick': 'CREATE TABLE quick (id integer)',
      '002_slow': 'SELECT pg_sleep(1.5)',
      '003_slow_too': 'SELECT pg_sleep(1.5)',
    };
    for (const [name, sql] of Object.entries(migrations)) {
      await mkdir(path.join(directory, name));
      await writeFile(path.join(directory, name, 'migration.sql'), sql);
    }
    const messages: string[] = [];
    const log = pino({ base: undefined }, { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) });
    const connection = await openPgConnection(database.url);
    try {
      await migrate(connection, directory, log);
    } finally {
      await connection.close();
      await database.drop();
      await rm(directory, { recursive: true, force: true });
    }
    expect(messages).toEqual([
      'applying 3 migrations: 001_quick, 002_slow, 003_slow_too',
      expect.stringMatching(/^migration 001_quick applied in \d+ ms$/),
      'migration 002_slow is taking long (over 1 s); start-up waits for it',
      expect.stringMatching(/^migration 002_slow applied in \d+ ms$/),
      expect.stringMatching(/^migration 003_slow_too applied in \d+ ms$/),
    ]);
  });
});
