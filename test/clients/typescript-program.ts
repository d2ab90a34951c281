/**
 * Generated types put to use: a scratch folder for a generated declaration file and the programs written against
 * it, and the TypeScript compiler run on them (the installed typescript@5, in process).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import ts from 'typescript';

// Under the project's node_modules so that the programs' imports (@supabase/postgrest-js, openapi-fetch) resolve.
const CACHE = join(import.meta.dirname, '../../node_modules/.cache');

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

export interface ScratchProgram {
  dir: string;
  /** Writes `name` (e.g. `valid.ts`) into the folder and returns its path. */
  write(name: string, source: string): Promise<string>;
  /** The compiler's diagnostics for `files`, as `file:line message`; empty when they compile. */
  compile(files: string[]): string[];
  remove(): Promise<void>;
}

export async function scratchProgram(prefix: string): Promise<ScratchProgram> {
  // A fresh install has no node_modules/.cache yet.
  await mkdir(CACHE, { recursive: true });
  const dir = await mkdtemp(join(CACHE, `${prefix}-`));
  // The previous program lends its parsed files (lib, the client library) to the next compilation.
  let previous: ts.Program | undefined;
  return {
    dir,
    async write(name, source) {
      const file = join(dir, name);
      await writeFile(file, source);
      return file;
    },
    compile(files) {
      const program = ts.createProgram(files, COMPILER_OPTIONS, undefined, previous);
      previous = program;
      return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const where = diagnostic.file && diagnostic.start !== undefined
          ? `${basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1} `
          : '';
        return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      });
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
