// Swagger UI at /api/docs and the contract itself at /api/docs-json (docs/rules/operations.md).
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
