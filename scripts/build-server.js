#!/usr/bin/env node
// Compiles the server's TypeScript (src/, and what it imports) with tsc into dist/ (tsconfig.build.json), which
// bin/staykit.js runs so that `npm start` compiles nothing at run time. Run by `npm ci`/`npm install` through the
// `prepare` script, and by `npm run build`. Tests run the sources through tsx and need no build.
//
// dist/ mirrors the repository (dist/src/db/migrate.js for src/db/migrate.ts), so the folders the server reads
// relative to its own modules — migrations/ and the web apps' builds under web/ — are linked into dist/ and found
// from the compiled code as from the sources. dist/build.json lists every compiled source with its size and
// modification time: bin/staykit.js runs dist/ only while they all still match. dist/pglite-template is the
// embedded database initialised and migrated by the compiled code, which a first start copies (src/db/pglite-data-dir.ts).
//
// `--out-dir DIR` builds elsewhere (a test's private build); DIR must be inside the repository, so that the compiled
// modules find node_modules/ as the sources do.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
const outDir = resolve(values['out-dir'] ?? join(root, 'dist'));
const staging = `${outDir}.building-${process.pid}`;
/** Folders of the repository that the server reads at run time relative to its own modules. */
const LINKED_FOLDERS = ['migrations', 'web'];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) };
const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, host);
if (!config) throw new Error('tsconfig.build.json could not be read');
if (config.errors.length > 0) fail(config.errors);

// Built beside the output folder and swapped in at the end: a server or bin/staykit.js using the previous build sees
// it or the new one, never half of one, and a failed build leaves the previous one (which bin/staykit.js runs only
// while its sources are unchanged). A clean folder: nothing compiled from a source that no longer exists survives.
await rm(staging, { recursive: true, force: true });
const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, outDir: staging } });
// The sources as the compiler read them, stamped before anything else can change them.
const stamped = await Promise.all(
  program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file))
    .map(async (file) => {
      const { size, mtimeMs } = await stat(file.fileName);
      return { path: relative(root, file.fileName).split('\\').join('/'), size, mtimeMs };
    }),
);
// Types are checked by `npm run typecheck` (part of `npm test`), not here: the emitted JavaScript does not depend on
// them (isolatedModules, verbatimModuleSyntax), so what fails the build is what would make that JavaScript wrong.
const diagnostics = [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics()];
if (diagnostics.length === 0) diagnostics.push(...program.emit().diagnostics);
if (diagnostics.length > 0) fail(diagnostics);

for (const folder of LINKED_FOLDERS) {
  // 'junction': a folder link that Windows allows without administrator rights; ignored elsewhere.
  await symlink(relative(staging, join(root, folder)), join(staging, folder), 'junction');
}

// The embedded database's template (src/db/pglite-data-dir.ts): an empty data folder is started as a copy of it.
const template = spawnSync(process.execPath, [join(staging, 'src/cli/main.js'), 'migrate'], {
  env: { ...process.env, DATABASE_URL: '', DATA_DIR: join(staging, 'pglite-template'), LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
if (template.status !== 0) {
  fail([], `the embedded database's template could not be made (exit code ${template.status})`);
}

await writeFile(join(staging, 'build.json'), `${JSON.stringify({ sources: stamped }, null, 1)}\n`);
await rm(outDir, { recursive: true, force: true });
await rename(staging, outDir);
console.log(`built ${relative(root, outDir)}/ from ${stamped.length} TypeScript files`);

function fail(diagnostics, message) {
  const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(message ?? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}
