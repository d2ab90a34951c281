/**
 * PGlite's Node filesystem, with every folder and file it creates readable by the owner only.
 *
 * PGlite creates its files 0666 and folders 0755 or 0777. The process umask cannot narrow the files: Emscripten's
 * NODEFS creates each one and then chmods it to the mode asked for, which no umask applies to (a run under umask
 * 077 still left 0666 files), and Node refuses `process.umask()` in a worker thread anyway. So the mode is narrowed
 * where Emscripten hands it to Node: NODEFS's `mknod` (create) and `setattr` (chmod). Emscripten's `preRun` hook,
 * which PGlite's own NodeFS uses to mount the folder, is where the module's filesystems can be reached before
 * Postgres starts.
 */
import { NodeFS } from '@electric-sql/pglite/nodefs';

type PGliteInstance = Parameters<NodeFS['init']>[0];
type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PostgresModule = Parameters<NonNullable<EmscriptenOptions['preRun']>[number]>[0];

/** The two NODEFS node operations that set a mode (Emscripten's `library_nodefs.js`). */
interface ModeSettingOps {
  mknod(parent: unknown, name: string, mode: number, dev: number): unknown;
  setattr(node: unknown, attr: { mode?: number | null }): void;
}

/** Group and other bits off; the file type bits and the owner's bits stay. */
const ownerOnly = (mode: number): number => mode & ~0o077;

function narrowModes(module: PostgresModule): void {
  const ops = (module.NODEFS as unknown as { node_ops: ModeSettingOps }).node_ops;
  const { mknod, setattr } = ops;
  ops.mknod = (parent, name, mode, dev) => mknod.call(ops, parent, name, ownerOnly(mode), dev);
  ops.setattr = (node, attr) => setattr.call(ops, node, attr.mode == null ? attr : { ...attr, mode: ownerOnly(attr.mode) });
}

export class OwnerOnlyNodeFS extends NodeFS {
  override async init(pg: PGliteInstance, options: EmscriptenOptions): Promise<{ emscriptenOpts: EmscriptenOptions }> {
    const { emscriptenOpts } = await super.init(pg, options);
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [narrowModes, ...(emscriptenOpts.preRun ?? [])] } };
  }
}
