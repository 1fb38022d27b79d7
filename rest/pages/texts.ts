import type { Locale } from '../../src/kernel/i18n.ts';

/** A page's sentences in every locale; `{name}` placeholders are filled by `fill`. */
export type Texts<K extends string> = Record<Locale, Record<K, string>>;

export const fill = (sentence: string, values: Record<string, string | number>) =>
  sentence.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** The sentences of the frame every page shares. */
export const FRAME = {
  en: {
    skip: 'Skip to the content',
    home: 'tcms home',
    signIn: 'Sign in',
    signUp: 'Sign up',
    signOut: 'Sign out',
    account: 'Account',
    apiDocs: 'API documentation',
    problem: 'There is a problem',
    formExpired: 'This form expired. It has been shown again: please send it once more.',
    notFoundTitle: 'Page not found',
    notFound: 'There is no page at this address.',
    failedTitle: 'Something went wrong',
    failed: 'The page could not be shown. Please try again in a moment.',
    tooMany: 'Too many attempts. Please try again in {minutes} minutes.',
  },
  es: {
    skip: 'Saltar al contenido',
    home: 'Inicio de tcms',
    signIn: 'Iniciar sesión',
    signUp: 'Crear cuenta',
    signOut: 'Cerrar sesión',
    account: 'Cuenta',
    apiDocs: 'Documentación de la API',
    problem: 'Hay un problema',
    formExpired: 'Este formulario caducó. Se ha mostrado de nuevo: envíalo otra vez, por favor.',
    notFoundTitle: 'Página no encontrada',
    notFound: 'No hay ninguna página en esta dirección.',
    failedTitle: 'Algo salió mal',
    failed: 'No se pudo mostrar la página. Inténtalo de nuevo en un momento.',
    tooMany: 'Demasiados intentos. Inténtalo de nuevo dentro de {minutes} minutos.',
  },
} satisfies Texts<string>;
