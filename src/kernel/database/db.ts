import type { PrismaClient } from '../../../prisma/generated/client/client.ts';

/** A client or an interactive transaction: what data-access code takes. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
