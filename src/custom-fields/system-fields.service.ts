import { type Db, type Prisma, prisma } from '../kernel/database/client.ts';
import { lockRow } from '../kernel/database/locks.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { newId } from '../kernel/ids.ts';
import type { ValueType } from './custom-fields.schemas.ts';

export type SeedOption = { key: string; en: string; es: string; icon: string | null; color: string | null };

export type SeedField = {
  systemKey: string;
  valueType: ValueType;
  en: string;
  es: string;
  options: SeedOption[];
  /** The seedKey of the default option (option types), or the default value itself. */
  defaultOption?: string;
  defaultValue?: Prisma.InputJsonValue;
};

const option = (key: string, en: string, es: string, color: string | null = null, icon: string | null = null): SeedOption => ({
  key,
  en,
  es,
  icon,
  color,
});

/**
 * The ten system fields every organization starts with (entity test_case, group system). Option
 * keys are stable: reset and the backfill find seeded options by them, never by name.
 */
export const SYSTEM_FIELDS: readonly SeedField[] = [
  {
    systemKey: 'priority',
    valueType: 'select_single',
    en: 'Priority',
    es: 'Prioridad',
    options: [
      option('low', 'Low', 'Baja', '#2e7d32', 'arrow-down'),
      option('medium', 'Medium', 'Media', '#f9a825', 'minus'),
      option('high', 'High', 'Alta', '#ef6c00', 'arrow-up'),
      option('critical', 'Critical', 'Crítica', '#c62828', 'alert'),
    ],
    defaultOption: 'medium',
  },
  {
    systemKey: 'severity',
    valueType: 'select_single',
    en: 'Severity',
    es: 'Severidad',
    options: [
      option('trivial', 'Trivial', 'Trivial', '#9e9e9e'),
      option('minor', 'Minor', 'Menor', '#2e7d32'),
      option('normal', 'Normal', 'Normal', '#1565c0'),
      option('major', 'Major', 'Mayor', '#ef6c00'),
      option('critical', 'Critical', 'Crítica', '#c62828'),
      option('blocker', 'Blocker', 'Bloqueante', '#6a1b9a'),
    ],
    defaultOption: 'normal',
  },
  {
    systemKey: 'status',
    valueType: 'select_single',
    en: 'Status',
    es: 'Estado',
    options: [
      option('actual', 'Actual', 'Vigente', '#2e7d32'),
      option('draft', 'Draft', 'Borrador', '#9e9e9e'),
      option('deprecated', 'Deprecated', 'Obsoleto', '#c62828'),
    ],
    defaultOption: 'actual',
  },
  {
    systemKey: 'type',
    valueType: 'select_single',
    en: 'Type',
    es: 'Tipo',
    options: [
      option('other', 'Other', 'Otro'),
      option('functional', 'Functional', 'Funcional'),
      option('smoke', 'Smoke', 'Humo'),
      option('regression', 'Regression', 'Regresión'),
      option('security', 'Security', 'Seguridad'),
      option('usability', 'Usability', 'Usabilidad'),
      option('performance', 'Performance', 'Rendimiento'),
      option('acceptance', 'Acceptance', 'Aceptación'),
      option('compatibility', 'Compatibility', 'Compatibilidad'),
      option('integration', 'Integration', 'Integración'),
      option('exploratory', 'Exploratory', 'Exploratoria'),
    ],
    defaultOption: 'other',
  },
  {
    systemKey: 'layer',
    valueType: 'select_single',
    en: 'Layer',
    es: 'Capa',
    options: [option('e2e', 'End-to-end', 'De extremo a extremo'), option('api', 'API', 'API'), option('unit', 'Unit', 'Unitaria')],
  },
  {
    systemKey: 'behavior',
    valueType: 'select_single',
    en: 'Behavior',
    es: 'Comportamiento',
    options: [
      option('positive', 'Positive', 'Positivo', '#2e7d32'),
      option('negative', 'Negative', 'Negativo', '#c62828'),
      option('destructive', 'Destructive', 'Destructivo', '#6a1b9a'),
    ],
  },
  {
    systemKey: 'automation_status',
    valueType: 'select_single',
    en: 'Automation status',
    es: 'Estado de automatización',
    options: [
      option('manual', 'Manual', 'Manual', null, 'hand'),
      option('to_be_automated', 'To be automated', 'Por automatizar', null, 'clock'),
      option('automated', 'Automated', 'Automatizado', null, 'robot'),
    ],
    defaultOption: 'manual',
  },
  { systemKey: 'is_flaky', valueType: 'checkbox', en: 'Flaky', es: 'Inestable', options: [], defaultValue: false },
  { systemKey: 'preconditions', valueType: 'paragraph', en: 'Preconditions', es: 'Precondiciones', options: [] },
  { systemKey: 'postconditions', valueType: 'paragraph', en: 'Postconditions', es: 'Postcondiciones', options: [] },
];

export const SYSTEM_KEYS = SYSTEM_FIELDS.map((field) => field.systemKey);

export const seedOf = (systemKey: string | null) => SYSTEM_FIELDS.find((field) => field.systemKey === systemKey);

/** The seed default of a field, given the ULIDs its seeded options carry (by seed key). */
export function seedDefaultValue(seed: SeedField, optionIdByKey: Map<string, string>): Prisma.InputJsonValue | null {
  if (seed.defaultOption) return optionIdByKey.get(seed.defaultOption) ?? null;
  return seed.defaultValue ?? null;
}

/**
 * Creates the system fields `orgId` lacks (all ten for a new organization), with their seeded
 * options, inside `tx`. Writes `orgId` itself: `tx` may be the unconfined client.
 */
export async function seedSystemFields(tx: Db, orgId: string, present: ReadonlySet<string> = new Set()): Promise<number> {
  const fields: Prisma.CustomFieldCreateManyInput[] = [];
  const options: Prisma.CustomFieldOptionCreateManyInput[] = [];
  SYSTEM_FIELDS.forEach((seed, index) => {
    if (present.has(seed.systemKey)) return;
    const fieldId = newId();
    const optionIdByKey = new Map<string, string>();
    seed.options.forEach((each, position) => {
      const id = newId();
      optionIdByKey.set(each.key, id);
      options.push({
        id,
        orgId,
        fieldId,
        seedKey: each.key,
        nameEn: each.en,
        nameEs: each.es,
        icon: each.icon,
        color: each.color,
        position,
      });
    });
    const defaultValue = seedDefaultValue(seed, optionIdByKey);
    fields.push({
      id: fieldId,
      orgId,
      entity: 'test_case',
      group: 'system',
      systemKey: seed.systemKey,
      valueType: seed.valueType,
      titleEn: seed.en,
      titleEs: seed.es,
      ...(defaultValue === null ? {} : { defaultValue }),
      position: index,
    });
  });
  if (fields.length === 0) return 0;
  await tx.customField.createMany({ data: fields });
  if (options.length > 0) await tx.customFieldOption.createMany({ data: options });
  return fields.length;
}

/**
 * Startup backfill for organizations created before system fields existed: idempotent, and safe
 * when several processes start at once (each organization is seeded under a lock on its row, and
 * re-read under that lock). Returns how many organizations received fields.
 */
export async function seedMissingSystemFields(db = prisma()): Promise<number> {
  const lacking = await db.organization.findMany({
    where: { OR: SYSTEM_KEYS.map((systemKey) => ({ customFields: { none: { systemKey } } })) },
    select: { id: true },
  });
  let seeded = 0;
  for (const { id } of lacking) {
    const created = await inTransaction(db, async (tx) => {
      await lockRow(tx, 'organizations', id);
      const existing = await tx.customField.findMany({
        where: { orgId: id, systemKey: { in: SYSTEM_KEYS } },
        select: { systemKey: true },
      });
      return seedSystemFields(tx, id, new Set(existing.map((field) => field.systemKey as string)));
    });
    if (created > 0) seeded += 1;
  }
  return seeded;
}
