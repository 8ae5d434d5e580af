// QueryWorkflow and RespondQueryTaskCompleted (the answer to a legacy query task).
import { notFound, queryFailed } from '../../errors';
import type { WorkflowServiceHandlers } from '../../messages';
import { QueryResultType } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import { decodeToken } from '../../tokens';
import type { Queries } from './queries';

export function queryHandlers(registry: Pick<RunRegistry, 'checkNamespace'>, queries: Queries): WorkflowServiceHandlers {
  return {
    QueryWorkflow: (req) => queries.query(registry.checkNamespace(req.namespace), req),
    RespondQueryTaskCompleted: (req) => {
      if (req.namespace) registry.checkNamespace(req.namespace);
      const token = decodeToken(req.taskToken, req.namespace);
      if (token.k !== 'query') throw notFound('not a query task token');
      const q = queries.legacy.get(token.queryId);
      if (!q) throw notFound('query not found or already answered');
      queries.legacy.delete(token.queryId);
      if (req.completedType === QueryResultType.v('ANSWERED')) q.resolve({ queryResult: req.queryResult ?? { payloads: [] } });
      else q.reject(queryFailed(req.errorMessage || 'query failed', req.failure));
      return {};
    },
  };
}
