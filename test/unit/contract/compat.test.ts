// The breaking-change check of `npm run lint` (tools/check-contract-compat.mjs,
// docs/api/README.md#versions-and-breaking-changes): it fails when a released response field goes
// or an operation id is renamed, passes when the same change is made under /v2, and passes on
// today's contract against the released snapshot.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(__dirname, '../../..');
const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

/** Runs the check as `npm run lint` does; its exit code and everything it printed. */
function check(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'tools/check-contract-compat.mjs'), ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('contract compatibility check (released contract -> openapi.yaml)', function () {
  this.timeout(180_000);

  it('when a response field of a released operation is removed then it fails, naming the operation and the field', async () => {
    const { code, output } = await check('--no-cache', fixture('released.yaml'), fixture('removed-response-field.yaml'));
    expect(code, output).to.equal(1);
    expect(output).to.contain('GET /bookings/{id}').and.contain("cannot remove response property 'notes'");
    expect(output).to.contain('breaks consumers of the contract');
  });

  it('when the same change is made under a new version prefix (/v2) then it passes', async () => {
    const { code, output } = await check('--no-cache', fixture('released.yaml'), fixture('breaking-under-v2.yaml'));
    expect(code, output).to.equal(0);
    expect(output).to.contain('no breaking change');
  });

  it('when a released operation id is renamed then it fails, since generated clients call it by name', async () => {
    const { code, output } = await check('--no-cache', fixture('released.yaml'), fixture('renamed-operation-id.yaml'));
    expect(code, output).to.equal(1);
    expect(output).to.contain('GET /bookings/{id}: operationId getBooking became readBooking');
  });

  it("when today's openapi.yaml is compared with the released snapshot then it passes", async () => {
    const { code, output } = await check();
    expect(code, output).to.equal(0);
    expect(output).to.match(/^openapi\.yaml: no breaking change against docs\/api\/openapi\.released\.yaml \(released version \d+\.\d+\.\d+\)$/m);
  });
});
