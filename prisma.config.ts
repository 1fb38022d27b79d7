import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses this file; the service applies prisma/migrations itself
// (src/database/migrator.ts) and connects through a driver adapter (src/database/client.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' },
});
