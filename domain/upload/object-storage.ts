// The domain's port for S3-compatible object storage (docs/rules/uploads.md). integrations/storage/s3-storage.ts
// implements it with @aws-sdk/client-s3; the domain never sees the SDK. Adapters retry on their own
// and throw whatever their transport throws once they give up; storage-call.ts turns that into
// 502 UPLOAD_PROVIDER_ERROR.
import type { Readable } from 'node:stream';

export interface StoredObject {
  sizeBytes: number;
  contentType: string | undefined;
  etag: string | undefined;
}

export interface PutOptions {
  contentType: string;
  /** known length of the body (a stream needs it) */
  contentLength?: number;
  cacheControl?: string;
}

export interface PresignPutOptions {
  contentType: string;
  contentLength: number;
  expiresInSeconds: number;
}

export interface PresignGetOptions {
  expiresInSeconds: number;
  /** suggested download name (Content-Disposition) */
  downloadName?: string;
}

export interface ObjectStorage {
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** undefined when there is no such object */
  head(key: string): Promise<StoredObject | undefined>;
  /** the object's bytes as a stream; undefined when there is no such object */
  read(key: string): Promise<Readable | undefined>;
  /** idempotent: deleting a missing object succeeds */
  delete(key: string): Promise<void>;
  /** a URL a client PUTs the bytes to; size and content type are part of the signature */
  presignPut(key: string, options: PresignPutOptions): Promise<string>;
  presignGet(key: string, options: PresignGetOptions): Promise<string>;
  /** resolves when the bucket answers (GET /health) */
  ping(): Promise<void>;
}
