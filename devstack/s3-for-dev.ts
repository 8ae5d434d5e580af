// The embedded stand-in for S3-compatible storage (`npm start` and the tests): s3rver from the npm
// registry on loopback, its objects in DATA_DIR/s3, the bucket created before it answers.
//
// Known gaps of s3rver 3.7 (the platform does not rely on them; production runs against MinIO or S3):
// it does not verify SigV4 signatures (a presigned URL is accepted with any signature of a known
// access key, so the signed content-length and content-type are NOT enforced; the expiry is), and it
// keeps no x-amz-checksum-* values. POST /upload/confirm therefore re-reads the object and checks
// size, type and SHA-256 itself, which holds on every backend.
import fs from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';

/** Browsers PUT presigned uploads and GET downloads straight to the storage: any origin may (dev only). */
const DEV_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

export interface EmbeddedS3 {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startEmbeddedS3(options: { dataDir: string; bucket: string; port?: number }): Promise<EmbeddedS3> {
  const directory = path.join(options.dataDir, 's3');
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: options.bucket, configs: [DEV_CORS] }],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: () => server.close(),
  };
}
