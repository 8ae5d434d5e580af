// The toolchain: mocha runs the tests through tsx, which strips types without checking them, so the
// types are checked by `npm run typecheck` and the build with the project's tsconfig.json. This checks
// that those settings are the strict ones the code is written for, by compiling a few lines with them.
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

describe('toolchain', () => {
  it("when code is compiled with the project's tsconfig then strict mode refuses an implicit any, a null where a string belongs and an unchecked override", function () {
    this.timeout(20_000);
    const root = path.resolve(__dirname, '../..');
    const file = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(file.config, ts.sys, root);
    const name = path.join(root, 'test/unit/strict-probe.ts');
    const source = [
      'export function echo(x) { return x; }',
      'export const name: string = null;',
      'class Base { greet(): string { return "hei"; } }',
      'export class Child extends Base { greet(): string { return "hallo"; } }',
    ].join('\n');
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, ...rest) =>
      fileName === name ? ts.createSourceFile(fileName, source, language) : read(fileName, language, ...rest);
    const program = ts.createProgram([name], { ...options, noEmit: true, types: [] }, host);
    const codes = ts.getPreEmitDiagnostics(program).map((d) => [d.code, ts.flattenDiagnosticMessageText(d.messageText, ' ')]);
    // 7006 implicit any (noImplicitAny), 2322 null to string (strictNullChecks), 4114 override missing (noImplicitOverride)
    expect(codes.map(([code]) => code).sort(), JSON.stringify(codes)).to.deep.equal([2322, 4114, 7006]);
  });
});
