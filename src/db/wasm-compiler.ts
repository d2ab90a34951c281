/**
 * How V8 compiles the embedded Postgres, a 9 MB WebAssembly module (STAYKIT_EMBEDDED_COMPILER,
 * docs/deployment.md#start-up-and-memory). By default V8 compiles every function with its baseline compiler
 * (Liftoff) and, once a function has run often enough, a second time with its optimising one (TurboFan). For
 * Postgres that second compilation is most of a start's CPU (the catalogue queries of a start are hot) and ~70 MiB of
 * machine code kept for the life of the process, while an embedded database's statements are mostly small: there the
 * baseline code runs them as fast. `baseline` keeps the first compilation only; `optimizing` is V8's default, faster
 * for CPU-heavy statements over many rows.
 *
 * The choice is a V8 flag, and V8 flags belong to the process, not to one thread: it is set once, by the first
 * embedded database opened in the process, before any of Postgres' code is compiled. WebAssembly compiled earlier
 * in the process (none in `staykit serve`, which opens the database first) keeps the code it has.
 */
import { setFlagsFromString } from 'node:v8';

export const EMBEDDED_COMPILERS = ['baseline', 'optimizing'] as const;
export type EmbeddedCompiler = (typeof EMBEDDED_COMPILERS)[number];

let chosen: EmbeddedCompiler | undefined;

/**
 * Applies `compiler` to the WebAssembly compiled from now on, if no embedded database of this process chose before;
 * returns the compiler in force.
 */
export function chooseEmbeddedCompiler(compiler: EmbeddedCompiler): EmbeddedCompiler {
  if (chosen !== undefined) return chosen;
  chosen = compiler;
  if (compiler === 'baseline') setFlagsFromString('--liftoff-only');
  return chosen;
}
