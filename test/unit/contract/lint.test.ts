// The contract lint of `npm run lint` (redocly.yaml, docs/api/README.md#the-contract-lint): Redocly's
// recommended rules with every warning an error, so a new warning fails; today's contract passes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(__dirname, '../../..');
const cliPackage = require.resolve('@redocly/cli/package.json');
const redocly = path.join(path.dirname(cliPackage), (JSON.parse(fs.readFileSync(cliPackage, 'utf8')) as { bin: Record<string, string> }).bin.redocly);

/** `redocly lint <file>` with the repository's config, as `npm run lint:contract` runs it. */
function lint(file: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [redocly, 'lint', file, '--config', path.join(root, 'redocly.yaml')], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('contract lint (Redocly, recommended-strict)', function () {
  this.timeout(60_000);

  it('when an operation has no operationId or a tag no description then the lint fails, naming both rules', async () => {
    const { code, output } = await lint(path.join(__dirname, 'fixtures/lint-new-warning.yaml'));
    expect(code, output).to.equal(1);
    expect(output).to.contain('operation-operationId').and.contain('tag-description').and.contain('Validation failed with 2 errors');
  });

  it("when today's openapi.yaml is linted then it passes, with only the exceptions listed in .redocly.lint-ignore.yaml", async () => {
    const { code, output } = await lint('openapi.yaml');
    expect(code, output).to.equal(0);
    expect(output)
      .to.contain('Your API description is valid')
      .and.match(/\d+ problems are explicitly ignored/);
  });
});
