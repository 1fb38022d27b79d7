import { version } from '../../package.json';

/** The service's version, package.json's: the bundle carries it (esbuild inlines the field), so does a run from source. */
export const SERVICE_VERSION: string = version;
