import { z } from 'zod';

export const seatUsageSchema = z
  .object({
    used: z
      .number()
      .int()
      .meta({ description: 'Owners, admins and members (suspended ones too) and pending unexpired non-viewer invitations' }),
    limit: z.number().int().nullable().meta({ description: 'The seat limit in force; null when unlimited' }),
  })
  .meta({ id: 'SeatUsage' });
