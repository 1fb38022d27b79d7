import { pino } from 'pino';

/**
 * The process's one structured logger: JSON lines on stdout (pino). The composition root sets its
 * level from the configuration; until then it logs at `info`.
 */
export const logger = pino({
  level: 'info',
  base: { service: 'tcms' },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});
