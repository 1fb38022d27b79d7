import { z } from 'zod';

/** An application the caller authorized in the active organization (contract §16); never its tokens. */
export const oauthGrantSchema = z
  .object({
    ulid: z.string(),
    clientUlid: z.string(),
    clientName: z.string(),
    createdAt: z.number().int().meta({ description: 'Epoch ms of the consent' }),
  })
  .meta({ id: 'OAuthGrant' });

export const grantPathSchema = z.object({ grantUlid: z.string() });
