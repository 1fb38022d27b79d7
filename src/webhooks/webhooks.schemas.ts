import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { distinctArray, someFieldOf } from '../kernel/validation.ts';
import { orgPathSchema } from '../orgs/orgs.schemas.ts';

/** The most webhooks one organization may have (contract §13 leaves the number to us). */
export const WEBHOOKS_PER_ORGANIZATION = 20;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_EVENTS_MAX = 50;
export const WEBHOOK_DESCRIPTION_MAX = 500;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why `text` cannot be a receiver's address, or null when it can. */
function urlProblem(text: string): string | null {
  if (!URL.canParse(text)) return 'must be an absolute URL';
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  return null;
}

const url = z
  .string()
  .max(WEBHOOK_URL_MAX)
  .superRefine((text, ctx) => {
    const problem = urlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: `Where deliveries are POSTed: http or https, no credentials, at most ${WEBHOOK_URL_MAX} characters`,
    example: 'https://ci.example.com/hooks/tcms',
  });

const SEGMENT = '[a-z0-9_]+';
/** `*`, an action such as `run.created`, or a prefix such as `run.*` (what emitAudit matches). */
const EVENT_PATTERN = new RegExp(`^(\\*|${SEGMENT}(\\.${SEGMENT})+|${SEGMENT}(\\.${SEGMENT})*\\.\\*)$`);

const events = distinctArray(
  z.string().regex(EVENT_PATTERN, 'must be *, an action such as run.created, or a prefix such as run.*'),
  WEBHOOK_EVENTS_MAX,
)
  .min(1)
  .meta({
    description: `Audit actions to deliver, 1..${WEBHOOK_EVENTS_MAX} distinct: \`*\`, an action, or a prefix like \`run.*\``,
    example: ['run.*'],
  });

const description = z.string().max(WEBHOOK_DESCRIPTION_MAX).nullable();
const active = z.boolean();

export const createWebhookBodySchema = z
  .strictObject({ url, events, description: description.optional(), active: active.optional() })
  .meta({ id: 'CreateWebhookRequest', example: { url: 'https://ci.example.com/hooks/tcms', events: ['run.*'], description: 'CI' } });
export type CreateWebhookInput = z.output<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .strictObject({ url: url.optional(), events: events.optional(), description: description.optional(), active: active.optional() })
  .refine(...someFieldOf(['url', 'events', 'description', 'active']))
  .meta({
    id: 'UpdateWebhookRequest',
    description:
      'At least one field; description takes null to clear; active: true also resets consecutiveFailures and sends one delivery at a time until one succeeds',
  });
export type UpdateWebhookInput = z.output<typeof updateWebhookBodySchema>;

export const webhookListQuerySchema = pageQuerySchema();

export const deliveryListQuerySchema = pageQuerySchema().extend({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this status' }),
});
export type DeliveryListQuery = z.output<typeof deliveryListQuerySchema>;

export const webhookPathSchema = orgPathSchema.extend({ webhookUlid: z.string() });
export const deliveryPathSchema = webhookPathSchema.extend({ deliveryUlid: z.string() });

export const webhookSchema = z
  .object({
    ulid: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    active: z.boolean(),
    consecutiveFailures: z.number().int().meta({ description: 'Failed deliveries in a row; at 20 the webhook is deactivated' }),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: 'The signing secret (whsec_…), shown only in this answer' }) })
  .meta({ id: 'WebhookWithSecret' });

export const webhookPageSchema = pageSchema(webhookSchema).meta({ id: 'WebhookPage' });

export const webhookDeliverySchema = z
  .object({
    ulid: z.string().meta({ description: 'The webhook-id header of every attempt' }),
    eventUlid: z.string(),
    action: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.number().int().nullable().meta({ description: 'Null unless pending' }),
    deliveredAt: z.number().int().nullable(),
    createdAt: z.number().int(),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryPageSchema = pageSchema(webhookDeliverySchema).meta({ id: 'WebhookDeliveryPage' });
