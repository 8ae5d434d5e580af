// Uploads and the image proxy (docs/rules/uploads.md, docs/rules/limits.md#rate-limits). POST /upload is multipart, parsed here with
// busboy as it streams (the contract validator does not buffer it); everything else is JSON.
import { Router, type Request, type Response } from 'express';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import type { AppDeps } from '../deps';
import { requireRole } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { principalOf, tenantOf } from '../request-context';
import { sendCreated, sendData, sendNoContent } from '../envelope';
import { discardUnreadBody } from '../unread-body';
import { errors } from '../../domain/errors';
import * as uploads from '../../domain/upload/upload.service';
import { renderImage, signImageUrl, type ImageProxyDeps } from '../../domain/upload/image-proxy.service';
import { nowOf } from '../../domain/time/clock';

interface FilePart {
  fields: Record<string, string>;
  stream: Readable;
  mimeType: string | undefined;
  fileName: string | undefined;
}

const malformed = (message: string) => errors.validation('Request validation failed', [{ field: 'body', message }]);

/**
 * Runs `handle` on the part named `file` while it streams; fields must come before it. A refusal
 * before the whole body arrived (too large, a purpose the caller may not upload) is answered once the
 * rest of the body was read and thrown away, on a connection that then closes (api/unread-body.ts).
 */
function withFilePart<T>(req: Request, res: Response, discardLimit: number, handle: (part: FilePart) => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    let settled = false;
    const succeed = (value: T) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe();
      void discardUnreadBody(req, res, discardLimit).then(() => reject(err));
    };
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12 } });
    } catch {
      return fail(malformed('must be multipart/form-data with a boundary'));
    }
    const fields: Record<string, string> = {};
    let work: Promise<T> | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (work || name !== 'file') {
        stream.resume();
        return;
      }
      work = handle({ fields: { ...fields }, stream, mimeType: info.mimeType, fileName: info.filename });
      work.catch(fail);
    });
    parser.on('error', () => fail(malformed('is not a well-formed multipart body')));
    parser.on('close', () => {
      if (!work)
        return fail(errors.validation('Request validation failed', [{ field: 'file', message: 'is required (a part named file, after the purpose field)' }]));
      work.then(succeed, fail);
    });
    req.pipe(parser);
  });
}

function numberParam(req: Request, name: string): number | undefined {
  const value = req.query[name];
  return value === undefined ? undefined : Number(value);
}

export function uploadRouter(deps: AppDeps): Router {
  const router = Router();
  const { config } = deps;
  const limits = config.rateLimit;
  const window = limits.windowMs;
  const uploadDeps: uploads.UploadDeps = {
    knex: deps.knex,
    storage: deps.storage,
    signaller: deps.signaller,
    limits: config.storage,
    now: deps.now,
    uploadHooks: deps.hooks.upload,
  };
  const proxyDeps: ImageProxyDeps = { knex: deps.knex, storage: deps.storage, secret: config.storage.imageProxySecret, publicBaseUrl: config.publicBaseUrl };
  const staff = requireRole('STAFF');
  // what an oversize upload may still send before its answer goes out (api/unread-body.ts)
  const discardLimit = 4 * config.storage.maxImageBytes;
  const actorOf = (req: Request): uploads.UploadActor => ({ userId: principalOf(req).userId, role: principalOf(req).role, tenantId: tenantOf(req) });

  router.post('/upload', staff, rateLimiter(limits.upload, window, 'upload-multipart', 'user'), async (req, res) => {
    const actor = actorOf(req);
    const file = await withFilePart(req, res, discardLimit, (part) =>
      uploads.uploadImage(uploadDeps, actor, { purpose: part.fields.purpose, mimeType: part.mimeType, fileName: part.fileName, body: part.stream }),
    );
    sendCreated(res, file);
  });
  router.post('/upload/presigned-put', staff, rateLimiter(limits.presignedPut, window, 'upload-presigned-put', 'user'), async (req, res) => {
    sendCreated(res, await uploads.presignPut(uploadDeps, actorOf(req), req.body));
  });
  router.post('/upload/confirm/:fileId', staff, async (req, res) => {
    sendData(res, await uploads.confirmUpload(uploadDeps, actorOf(req), req.params.fileId as string));
  });
  router.get('/upload/presigned-get/:id', staff, rateLimiter(limits.presignedGet, window, 'upload-presigned-get', 'user'), async (req, res) => {
    sendData(res, await uploads.presignGet(uploadDeps, actorOf(req), req.params.id as string));
  });
  router.get('/upload/:id', staff, async (req, res) => {
    sendData(res, await uploads.getUpload(uploadDeps, actorOf(req), req.params.id as string));
  });
  router.delete('/upload/:id', staff, rateLimiter(limits.uploadDelete, window, 'upload-delete', 'user'), async (req, res) => {
    await uploads.deleteUpload(uploadDeps, actorOf(req), req.params.id as string);
    sendNoContent(res);
  });

  router.get('/image-proxy/sign', rateLimiter(limits.imageSign, window, 'image-sign', 'user'), async (req, res) => {
    // a signed-in customer may sign public images (docs/rules/uploads.md#who-may-do-what); staff sign within their salon
    const caller =
      req.customer && !req.principal ? { role: 'CUSTOMER' as const, tenantId: null } : (({ role, tenantId }) => ({ role, tenantId }))(principalOf(req));
    const q = req.query as Record<string, string | undefined>;
    sendData(
      res,
      await signImageUrl(
        proxyDeps,
        caller,
        {
          key: String(q.key),
          w: numberParam(req, 'w'),
          h: numberParam(req, 'h'),
          fit: q.fit as 'fit' | 'fill' | undefined,
          g: q.g as never,
          q: numberParam(req, 'q'),
        },
        nowOf(deps).getTime(),
      ),
    );
  });
  router.get('/image-proxy/render', async (req, res) => {
    const q = req.query as Record<string, string>;
    const image = await renderImage(
      proxyDeps,
      { key: q.key, o: q.o, exp: Number(q.exp), sig: q.sig, accept: req.get('accept'), ifNoneMatch: req.get('if-none-match') },
      nowOf(deps).getTime(),
    );
    res.set({
      'Cache-Control': `public, max-age=${image.maxAge}, immutable`,
      ETag: image.etag,
      Vary: 'Accept',
      'Content-Type': image.contentType,
      'X-Image-Cache': image.cached ? 'HIT' : 'MISS',
      // the image is meant to be embedded by the salon's pages on other origins
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    if (image.notModified) {
      res.status(304).end();
      return;
    }
    if (Buffer.isBuffer(image.body)) {
      res.status(200).end(image.body);
      return;
    }
    res.status(200);
    image.body.on('error', () => res.destroy());
    image.body.pipe(res);
  });
  return router;
}
