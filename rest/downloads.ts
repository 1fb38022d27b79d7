import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import { version } from '../package.json';
import { AppError } from '../src/kernel/errors.ts';

/**
 * `GET /downloads/tcms-cli.tgz` and `/downloads/tcms-cli-<version>.tgz`: the command-line client
 * as an npm package (scripts/build.mjs packs it at install time), so that a CI job runs
 * `npx --yes "$TCMS_URL/downloads/tcms-cli.tgz" results upload …` with nothing else installed.
 * The unversioned name follows the server's upgrades, so it is cached briefly; the versioned one
 * never changes.
 */

/** dist/downloads/: this module runs from rest/ (tests) or bundled into dist/server.mjs, both one level below the root. */
const DOWNLOADS = fileURLToPath(new URL('../dist/downloads/', import.meta.url));

const DAY_MS = 24 * 60 * 60 * 1000;

export type Download = { path: string; file: string; maxAgeMs: number; immutable: boolean };

export const CLI_DOWNLOADS: Download[] = [
  { path: '/downloads/tcms-cli.tgz', file: 'tcms-cli.tgz', maxAgeMs: 5 * 60 * 1000, immutable: false },
  { path: `/downloads/tcms-cli-${version}.tgz`, file: `tcms-cli-${version}.tgz`, maxAgeMs: 365 * DAY_MS, immutable: true },
];

/** Sends the file as an attachment (Express's `send`: ETag, Last-Modified, 304, HEAD, ranges); 404 when it was not built. */
export const serveDownload =
  ({ file, maxAgeMs, immutable }: Download): RequestHandler =>
  (_req, res, next) => {
    const headers = { 'Content-Type': 'application/gzip', 'X-Content-Type-Options': 'nosniff' };
    res.download(path.join(DOWNLOADS, file), file, { maxAge: maxAgeMs, immutable, headers }, (error?: NodeJS.ErrnoException) => {
      // Once the headers left, the client went away mid-file: there is nobody to answer.
      if (!error || res.headersSent) return;
      next(error.code === 'ENOENT' ? new AppError('not_found', `${file} is not built on this server (npm run build makes it)`) : error);
    });
  };
