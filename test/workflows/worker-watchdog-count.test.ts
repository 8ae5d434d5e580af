// What the SDK patch (patches/@temporalio+worker) buys: an activation's workflow code runs inside
// one call into the workflow sandbox made with a timeout, where the SDK made 3-4 (Node starts and
// joins a watchdog thread for each such call; docs/performance.md, round three). Counted over the
// 14 activations of a booking's history replayed in this process (replay runs the sandbox in the
// calling thread): without the patch the test fails (3 and 4 timed calls per activation).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
// the SDK's workflow sandbox, whose activation the count follows (not part of its public entry)
import { BaseVMWorkflow } from '@temporalio/worker/lib/workflow/vm-shared';
import { platformWorkflowBundle } from './support/platform-bundle';

describe('the worker patch: one timeout watchdog per activation', function () {
  this.timeout(60_000);

  it("when a booking's history replays then each activation makes one timed call into the sandbox", async () => {
    const history = JSON.parse(fs.readFileSync(path.join(__dirname, 'histories', 'booking-4b2b63f.json'), 'utf8'));
    const workflowBundle = await platformWorkflowBundle();
    const originalRun = vm.Script.prototype.runInContext;
    const originalActivate = BaseVMWorkflow.prototype.activate;
    /** the timed calls each activation made, in order */
    const perActivation: number[] = [];
    let inActivation = false;
    vm.Script.prototype.runInContext = function (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions) {
      if (inActivation && typeof options?.timeout === 'number') perActivation[perActivation.length - 1] += 1;
      return originalRun.call(this, context, options);
    };
    BaseVMWorkflow.prototype.activate = async function (this: BaseVMWorkflow, ...args: Parameters<BaseVMWorkflow['activate']>) {
      perActivation.push(0);
      inActivation = true;
      try {
        return await originalActivate.apply(this, args);
      } finally {
        inActivation = false;
      }
    };
    try {
      await Worker.runReplayHistory({ workflowBundle }, history, 'booking:b-1');
    } finally {
      vm.Script.prototype.runInContext = originalRun;
      BaseVMWorkflow.prototype.activate = originalActivate;
    }
    expect(perActivation.length, 'activations replayed').to.be.at.least(5);
    expect([...new Set(perActivation)], 'timed calls per activation').to.deep.equal([1]);
  });
});
