import path from 'node:path';
import { z } from 'zod';

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// address')
    .optional(),
  TCMS_DATA_DIR: z.string().min(1).default('./data'),
  TCMS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TCMS_LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});

export type Config = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  logRequests: boolean;
  production: boolean;
  development: boolean;
};

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.parse(environment);
  return {
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: path.resolve(parsed.TCMS_DATA_DIR),
    poolSize: parsed.TCMS_DB_POOL_SIZE,
    logRequests: parsed.TCMS_LOG_REQUESTS,
    production: parsed.NODE_ENV === 'production',
    development: parsed.NODE_ENV === 'development',
  };
}
