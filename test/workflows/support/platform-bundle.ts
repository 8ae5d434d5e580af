// The platform's workflows bundled once per test run: every workflow test file runs against the
// same code, and webpack takes seconds of CPU per bundle.
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

export function platformWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../../workflows'), logger: new DefaultLogger('WARN') });
  return bundle;
}
