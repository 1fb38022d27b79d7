import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../../kernel/config.ts';
import { assertSafeKey, type FileStorage, type StoredObject } from './file-storage.ts';

const isNoSuchKey = (error: unknown) => error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey';

/** Any S3-compatible object store (AWS S3, MinIO, R2, …), through the AWS SDK v3. */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Many S3-compatible stores do not implement the SDK's default CRC32 checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data }));
  }

  async putFile(key: string, sourcePath: string): Promise<void> {
    assertSafeKey(key);
    // The length up front lets the SDK send the stream as it is read (no buffering to measure it).
    const { size } = await stat(sourcePath);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(sourcePath), ContentLength: size }),
    );
  }

  async copy(sourceKey: string, targetKey: string): Promise<boolean> {
    assertSafeKey(sourceKey);
    assertSafeKey(targetKey);
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: targetKey, CopySource: `${this.bucket}/${sourceKey}` }));
      return true;
    } catch (error) {
      if (isNoSuchKey(error)) return false;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
