// Swagger UI at /api/docs and the contract itself at /api/docs-json (spec 4.13).
import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { loadOpenApi } from '../openapi';

export function docsRouter(): Router {
  const document = loadOpenApi();
  const router = Router();
  router.get('/docs-json', (_req, res) => {
    res.json(document);
  });
  router.use('/docs', swaggerUi.serve, swaggerUi.setup(document as never));
  return router;
}
