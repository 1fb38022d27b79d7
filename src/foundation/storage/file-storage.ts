import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../../kernel/ids.ts';

/** Where uploaded files live. Keys are relative slash-separated paths such as `avatars/projects/X.webp`. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** Stores the file at `sourcePath` (a local file) under `key`, streaming it: never whole in memory. */
  putFile(key: string, sourcePath: string): Promise<void>;
  /** Copies an object within the storage, without passing its bytes through memory; false when `sourceKey` names nothing. */
  copy(sourceKey: string, targetKey: string): Promise<boolean>;
  /** null when no object has that key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder such as `staging/`). */
  list(prefix: string): AsyncIterable<StoredObject>;
}

export type StoredObject = { key: string; lastModified: Date };

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

/** A directory on local disk (under TCMS_DATA_DIR by default). Writes are atomic renames. */
export class LocalDirectoryStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  put(key: string, data: Buffer): Promise<void> {
    return this.writeAtomically(key, (temporary) => writeFile(temporary, data));
  }

  putFile(key: string, sourcePath: string): Promise<void> {
    return this.writeAtomically(key, (temporary) => copyFile(sourcePath, temporary, constants.COPYFILE_FICLONE));
  }

  async copy(sourceKey: string, targetKey: string): Promise<boolean> {
    const source = this.pathOf(sourceKey);
    try {
      await this.writeAtomically(targetKey, (temporary) => copyFile(source, temporary, constants.COPYFILE_FICLONE));
      return true;
    } catch (error) {
      // The target's folder exists by then: a missing file can only be the source.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** `write` fills a temporary file beside the target, which is then renamed into place. */
  private async writeAtomically(key: string, write: (temporary: string) => Promise<void>): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${newId()}.tmp`;
    try {
      await write(temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const folder = prefix.replace(/\/$/, '');
    let names: string[];
    try {
      names = await readdir(this.pathOf(folder), { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const key = `${folder}/${name.split(path.sep).join('/')}`;
      if (key.endsWith('.tmp')) continue;
      const info = await stat(this.pathOf(key)).catch(() => null);
      if (info?.isFile()) yield { key, lastModified: info.mtime };
    }
  }
}

let current: FileStorage | undefined;

export function useFileStorage(storage: FileStorage): void {
  current = storage;
}

/** The process-wide file storage, chosen by the composition root. */
export function fileStorage(): FileStorage {
  if (!current) throw new Error('No file storage configured');
  return current;
}
