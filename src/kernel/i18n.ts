/** The locales that localized custom-field texts are authored in; English is always present. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The request locale from `Accept-Language`: the supported language with the highest weight
 * (`es-MX;q=0.9` counts as `es`); absent, unsupported or malformed headers resolve to English.
 */
export function localeOf(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  let best: { locale: Locale; weight: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    const locale = LOCALES.find((each) => each === language);
    if (!locale) continue;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (Number.isFinite(weight) && weight > 0 && (!best || weight > best.weight)) best = { locale, weight };
  }
  return best?.locale ?? 'en';
}

/** A text authored in both locales: the requested one when present, else English. */
export const localized = (locale: Locale, en: string, es: string | null | undefined): string => (locale === 'es' && es ? es : en);
