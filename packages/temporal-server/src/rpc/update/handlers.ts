// UpdateWorkflowExecution and PollWorkflowExecutionUpdate.
import type { WorkflowServiceHandlers } from '../../messages';
import type { RunRegistry } from '../../state/run-registry';
import type { Updates } from './updates';

export function updateHandlers(registry: Pick<RunRegistry, 'checkNamespace'>, updates: Pick<Updates, 'update' | 'poll'>): WorkflowServiceHandlers {
  return {
    UpdateWorkflowExecution: (req, call) => updates.update(registry.checkNamespace(req.namespace), req, call),
    PollWorkflowExecutionUpdate: (req, call) => updates.poll(registry.checkNamespace(req.namespace), req, call),
  };
}
