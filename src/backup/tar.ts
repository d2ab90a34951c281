/**
 * The tar format (POSIX ustar) for backup files: regular files and folders, names up to 255 bytes, sizes up to
 * 8 GiB per file. Written as a stream (a file's bytes go from disk to the archive without being held whole), read
 * from a file on disk by offset. No dependency: the format is a 512-byte header per entry and its bytes padded to 512,
 * and PGlite's own data-folder images (`dumpDataDir('none')`) are the same format, so they are read here too.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';

const BLOCK = 512;
const FILE_TYPE = '0';
const OLD_FILE_TYPE = '\0';
const FOLDER_TYPE = '5';
const MAX_SIZE = 8 ** 11 - 1;

export interface TarEntry {
  /** The path inside the archive, `/`-separated, without a leading `/`. */
  name: string;
  type: 'file' | 'folder' | 'other';
  size: number;
  /** Where the entry's bytes start in the archive. */
  offset: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** `name` in ustar's two fields: the last part in `name` (100 bytes), the folders before it in `prefix` (155). */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let cut = name.indexOf('/'); cut !== -1; cut = name.indexOf('/', cut + 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { prefix, name: rest };
  }
  throw new Error(`the name ${name} is too long for a tar archive`);
}

function header(name: string, type: string, size: number, mode: number): Buffer {
  if (size > MAX_SIZE) throw new Error(`${name} is larger than a tar entry can hold`);
  const block = Buffer.alloc(BLOCK);
  const parts = splitName(name);
  block.write(parts.name, 0, 100);
  block.write(octal(mode, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  block.write(' '.repeat(8), 148);
  block.write(type, 156);
  block.write('ustar\u000000', 257);
  block.write(parts.prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes an archive to `output` entry by entry; `end` writes the closing blocks and ends the stream. */
export class TarWriter {
  constructor(private readonly output: Writable) {}

  private write(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  async folder(name: string): Promise<void> {
    await this.write(header(`${name}/`, FOLDER_TYPE, 0, 0o700));
  }

  async bytes(name: string, data: Uint8Array): Promise<void> {
    await this.write(header(name, FILE_TYPE, data.byteLength, 0o600));
    await this.write(data);
    await this.write(padding(data.byteLength));
  }

  /** The file at `path`, `size` bytes long (read as it is now: the caller makes sure it does not change meanwhile). */
  async file(name: string, path: string, size: number): Promise<void> {
    await this.write(header(name, FILE_TYPE, size, 0o600));
    let written = 0;
    if (size > 0) {
      for await (const chunk of createReadStream(path, { start: 0, end: size - 1 })) {
        written += (chunk as Buffer).byteLength;
        await this.write(chunk as Buffer);
      }
    }
    if (written !== size) throw new Error(`${path} changed size while it was archived (${size} → ${written} bytes)`);
    await this.write(padding(size));
  }

  async end(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
    await new Promise<void>((resolve, reject) => this.output.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function entryType(flag: string): TarEntry['type'] {
  if (flag === FILE_TYPE || flag === OLD_FILE_TYPE) return 'file';
  return flag === FOLDER_TYPE ? 'folder' : 'other';
}

/** The entries of the uncompressed archive `path`, in order. */
export async function listTar(path: string): Promise<TarEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size: total } = await file.stat();
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    for (let offset = 0; offset + BLOCK <= total;) {
      await file.read(block, 0, BLOCK, offset);
      if (block.every((byte) => byte === 0)) break;
      if (field(block, 257, 5) !== 'ustar') throw new Error(`${path} is not a tar archive (no ustar header at byte ${offset})`);
      const prefix = field(block, 345, 155);
      const name = `${prefix ? `${prefix}/` : ''}${field(block, 0, 100)}`.replace(/^\/+/, '').replace(/\/+$/, '');
      const size = parseInt(field(block, 124, 12).trim() || '0', 8);
      entries.push({ name, type: entryType(String.fromCharCode(block[156]!)), size, offset: offset + BLOCK });
      offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** `name` under `root`, refused if it would leave it (`..`, an absolute name). */
export function pathInside(root: string, name: string): string {
  const relative = normalize(name);
  if (relative.startsWith(`..${sep}`) || relative === '..' || relative.startsWith(sep)) throw new Error(`the archive names a path outside its folder: ${name}`);
  return join(root, relative);
}

/** The bytes of `entry` of the archive `path`. */
export async function readEntry(path: string, entry: TarEntry): Promise<Buffer> {
  const file: FileHandle = await open(path, 'r');
  try {
    const data = Buffer.alloc(entry.size);
    await file.read(data, 0, entry.size, entry.offset);
    return data;
  } finally {
    await file.close();
  }
}

/** Writes `entry` of the archive `path` to the file `target` (folders made owner-only). */
export async function extractEntry(path: string, entry: TarEntry, target: string): Promise<void> {
  if (entry.type === 'folder') {
    await mkdir(target, { recursive: true, mode: 0o700 });
    return;
  }
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  if (entry.size === 0) {
    await (await open(target, 'w', 0o600)).close();
    return;
  }
  await pipeline(
    createReadStream(path, { start: entry.offset, end: entry.offset + entry.size - 1 }),
    createWriteStream(target, { mode: 0o600 }),
  );
}
