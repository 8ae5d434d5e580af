// ExecuteMultiOperation (update-with-start).
import type { WorkflowServiceHandlers } from '../../messages';
import { updateWithStart, UpdateWithStartDeps } from './update-with-start';

export function multiOperationHandlers(deps: UpdateWithStartDeps): WorkflowServiceHandlers {
  return {
    ExecuteMultiOperation: (req, call) => updateWithStart(deps, req, call),
  };
}
