import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** The storage sources (this folder's parent), excluding tests and declaration files. */
const SOURCE_ROOT = join(__dirname, '..');

/**
 * Transpiles the storage sources to CommonJS JavaScript under `outDir`, keeping the folder layout,
 * so that a child `node` process can run the real backend code (tests that kill a process need
 * one). Type checking is the build's job; this only strips types.
 */
export function compileStorage(outDir: string): void {
  for (const file of sources(SOURCE_ROOT)) {
    const output = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
      fileName: file,
    });
    const target = join(outDir, relative(SOURCE_ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
  }
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    const source = entry.name.endsWith('.ts') && !/\.(test|d)\.ts$/.test(entry.name);
    return source ? [path] : [];
  });
}
