// ObjectStorage over any S3-compatible endpoint (AWS S3, MinIO, s3rver in the embedded stack) with
// @aws-sdk/client-s3. The SDK retries each call (S3_MAX_ATTEMPTS, exponential back-off); what still
// fails is thrown to the domain, which answers 502 UPLOAD_PROVIDER_ERROR.
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../../config';
import type { ObjectStorage, PresignGetOptions, PresignPutOptions, PutOptions, StoredObject } from '../../domain/upload/object-storage';

/** What the adapter needs of the storage configuration (config/index.ts holds the fields and their meaning). */
export type S3StorageOptions = Pick<
  StorageConfig,
  'endpoint' | 'publicEndpoint' | 'bucket' | 'region' | 'accessKeyId' | 'secretAccessKey' | 'forcePathStyle' | 'maxAttempts'
>;

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  private readonly signer: S3Client;
  readonly bucket: string;

  constructor(options: S3StorageOptions) {
    const base: S3ClientConfig = {
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      maxAttempts: options.maxAttempts,
      // plain payloads: S3-compatible servers other than AWS (s3rver, older MinIO) do not all
      // understand the SDK's default aws-chunked CRC32 trailers
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client({ ...base, ...(options.endpoint ? { endpoint: options.endpoint } : {}) });
    const signingEndpoint = options.publicEndpoint ?? options.endpoint;
    this.signer = signingEndpoint === options.endpoint ? this.client : new S3Client({ ...base, endpoint: signingEndpoint });
    this.bucket = options.bucket;
  }

  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isMissing(err)) throw err;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ...(options.contentLength !== undefined ? { ContentLength: options.contentLength } : {}),
        ...(options.cacheControl ? { CacheControl: options.cacheControl } : {}),
      }),
    );
  }

  async head(key: string): Promise<StoredObject | undefined> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: res.ContentLength ?? 0, contentType: res.ContentType, etag: res.ETag };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async read(key: string): Promise<Readable | undefined> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  presignPut(key: string, options: PresignPutOptions): Promise<string> {
    return getSignedUrl(
      this.signer,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType, ContentLength: options.contentLength }),
      // content-length is signed by default; content-type is bound into the signature here too
      { expiresIn: options.expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) },
    );
  }

  presignGet(key: string, options: PresignGetOptions): Promise<string> {
    const disposition = options.downloadName ? `attachment; filename="${options.downloadName.replace(/["\\]/g, '_')}"` : undefined;
    return getSignedUrl(
      this.signer,
      new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(disposition ? { ResponseContentDisposition: disposition } : {}) }),
      {
        expiresIn: options.expiresInSeconds,
      },
    );
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
