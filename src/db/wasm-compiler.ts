/**
 * How V8 compiles the embedded Postgres, a 9 MB WebAssembly module (STAYKIT_EMBEDDED_COMPILER,
 * docs/deployment.md#start-up-and-memory). V8 compiles every function first with its baseline compiler (Liftoff) and,
 * once a function has run often enough, again with its optimising one (TurboFan). `optimizing`, the default, is
 * that. `baseline` keeps the first compilation only: measured on the benchmark's embedded run, ~40 MiB less idle
 * memory and ~30 % less CPU to start, but 10–50 % fewer requests per second (a median of ~25 %; most on statements
 * over many rows), so it is for deployments short of memory, not the default.
 *
 * The choice is a V8 flag, and V8 flags belong to the process, not to one thread: it is set once, by the first
 * embedded database opened in the process, before any of Postgres' code is compiled. WebAssembly compiled earlier
 * in the process (none in `staykit serve`, which opens the database first) keeps the code it has.
 */
import { setFlagsFromString } from 'node:v8';

export const EMBEDDED_COMPILERS = ['baseline', 'optimizing'] as const;
export type EmbeddedCompiler = (typeof EMBEDDED_COMPILERS)[number];

let chosen: EmbeddedCompiler | undefined;

/** Applies `compiler` to the WebAssembly compiled from now on, if no embedded database of this process chose before. */
export function chooseEmbeddedCompiler(compiler: EmbeddedCompiler): void {
  if (chosen !== undefined) return;
  chosen = compiler;
  if (compiler === 'baseline') setFlagsFromString('--liftoff-only');
}
