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
  TCMS_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // Files go to an S3-compatible bucket when TCMS_S3_BUCKET is set, else under TCMS_DATA_DIR/files.
  TCMS_S3_BUCKET: z.string().min(1).optional(),
  TCMS_S3_ENDPOINT: z.url().optional(),
  TCMS_S3_REGION: z.string().min(1).default('us-east-1'),
  TCMS_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  TCMS_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  TCMS_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
});

/**
 * A problem with how the service was configured or where it runs (a bad variable, a data
 * directory that cannot be used, a database that cannot be reached): the process reports its
 * message as one line and exits, never with a stack.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export type Config = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  logRequests: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  development: boolean;
  s3: S3Settings | undefined;
};

export type S3Settings = {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
};

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.parse(environment);
  return {
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: path.resolve(parsed.TCMS_DATA_DIR),
    poolSize: parsed.TCMS_DB_POOL_SIZE,
    logRequests: parsed.TCMS_LOG_REQUESTS,
    logLevel: parsed.TCMS_LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
    development: parsed.NODE_ENV === 'development',
    s3: parsed.TCMS_S3_BUCKET
      ? {
          bucket: parsed.TCMS_S3_BUCKET,
          endpoint: parsed.TCMS_S3_ENDPOINT,
          region: parsed.TCMS_S3_REGION,
          credentials:
            parsed.TCMS_S3_ACCESS_KEY_ID && parsed.TCMS_S3_SECRET_ACCESS_KEY
              ? { accessKeyId: parsed.TCMS_S3_ACCESS_KEY_ID, secretAccessKey: parsed.TCMS_S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: parsed.TCMS_S3_FORCE_PATH_STYLE,
        }
      : undefined,
  };
}
