// The platform's workflows bundled once, at build time (`npm run build` runs this file compiled):
// dist/workflow-bundle.js, which a compiled worker (bin/worker in production, npm start's, the
// production tests') loads instead of running webpack over workflows/ at every start (about 5 s of
// CPU each). The worker run from source (the tests' embedded stack) bundles the source itself.
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/** dist/workflow-bundle.js beside the compiled code; undefined when running from source or not built. */
export function prebuiltWorkflowBundle(): string | undefined {
  if (!__filename.endsWith('.js')) return undefined;
  const file = path.join(__dirname, '..', 'workflow-bundle.js');
  return fs.existsSync(file) ? file : undefined;
}

async function main(): Promise<void> {
  const started = Date.now();
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve(path.join(__dirname, '..', 'workflows')), logger: new DefaultLogger('WARN') });
  const file = path.join(__dirname, '..', 'workflow-bundle.js');
  fs.writeFileSync(file, code);
  console.log(
    `workflows bundled into ${path.relative(process.cwd(), file)} (${(code.length / 1024 / 1024).toFixed(2)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`bundling the workflows failed: ${(err as Error).message}`);
    process.exit(1);
  });
}
