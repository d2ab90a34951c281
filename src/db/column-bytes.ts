/**
 * Column values as the bytes PostgreSQL sent. node-postgres decodes every value of every row into a JavaScript
 * string; a response body PostgreSQL built (the query engine's JSON) would then be encoded back into the same
 * UTF-8 bytes to be sent — for a large body most of the server's CPU. For the columns a statement names
 * (`QueryOptions.bytes`), a connection of this pool keeps the bytes instead (a Buffer), and the HTTP layer sends them.
 *
 * How: node-postgres reads the socket through pg-protocol's parser, which its Connection attaches to the stream
 * (`attachListeners`). The reader below sits in front of that parser: it cuts the stream into whole messages (a
 * type byte and a 4-byte length) and hands them on unchanged, except DataRow messages while `columns` is set, which
 * it reads itself and emits as node-postgres' parser would (`dataRow` with `fields`), the chosen columns as Buffers.
 * `columns` is set by the statement's owner when its RowDescription arrives and cleared when its result ends; both
 * happen synchronously while a message is handed on, so the reader always knows before the next message whether
 * to read it itself.
 */
import pg from 'pg';

const HEADER_BYTES = 5;
const ROW_DESCRIPTION = 0x54; // 'T'
const DATA_ROW = 0x44; // 'D'

/** A DataRow as node-postgres' parser emits it. */
export interface DataRow {
  name: 'dataRow';
  length: number;
  fieldCount: number;
  fields: (string | Buffer | null)[];
}

export class ColumnBytesReader {
  /** Indexes of the current result's columns to keep as bytes; undefined = node-postgres decodes every value. */
  columns: ReadonlySet<number> | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes needed before anything can be handed on: a header, or the whole message it announced. */
  private needed = HEADER_BYTES;

  constructor(
    /** node-postgres' own parser: takes whole messages (several at once, too). */
    private readonly forward: (messages: Buffer) => void,
    private readonly emitRow: (row: DataRow) => void,
  ) {}

  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.needed) return;
    // Chunks of a large message are joined once, when it is complete.
    const buffer = this.pending.length === 1 ? chunk : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.needed = HEADER_BYTES;
    let offset = 0;
    // Messages node-postgres reads are handed on in runs, up to and including a RowDescription (which may set
    // `columns` for the rows after it).
    let run = 0;
    while (buffer.length - offset >= HEADER_BYTES) {
      const end = offset + 1 + buffer.readUInt32BE(offset + 1);
      if (end > buffer.length) {
        this.needed = end - offset;
        break;
      }
      const type = buffer[offset];
      if (type === DATA_ROW && this.columns !== undefined) {
        if (run < offset) this.forward(buffer.subarray(run, offset));
        this.emitRow(readDataRow(buffer, offset, end, this.columns));
        run = end;
      } else if (type === ROW_DESCRIPTION) {
        this.forward(buffer.subarray(run, end));
        run = end;
      }
      offset = end;
    }
    if (run < offset) this.forward(buffer.subarray(run, offset));
    if (offset < buffer.length) {
      const rest = buffer.subarray(offset);
      this.pending.push(rest);
      this.pendingBytes = rest.length;
    }
  }
}

/**
 * A DataRow (count, then each value's length and bytes; -1 = NULL), the `columns` as Buffers sharing `buffer`'s
 * memory — a socket chunk or a join of chunks, neither of which is written again — the others decoded as
 * node-postgres would.
 */
function readDataRow(buffer: Buffer, start: number, end: number, columns: ReadonlySet<number>): DataRow {
  const count = buffer.readInt16BE(start + HEADER_BYTES);
  const fields: (string | Buffer | null)[] = new Array<string | Buffer | null>(count);
  let offset = start + HEADER_BYTES + 2;
  for (let index = 0; index < count; index += 1) {
    const length = buffer.readInt32BE(offset);
    offset += 4;
    if (length === -1) {
      fields[index] = null;
      continue;
    }
    fields[index] = columns.has(index) ? buffer.subarray(offset, offset + length) : buffer.toString('utf8', offset, offset + length);
    offset += length;
  }
  return { name: 'dataRow', length: end - start - 1, fieldCount: count, fields };
}

/** What node-postgres' Connection offers here beyond @types/pg. */
interface ConnectionInternals {
  attachListeners(stream: NodeJS.EventEmitter): void;
  emit(event: string, message: unknown): boolean;
  _emitMessage?: boolean;
}

/** Each connection's reader, for the statements sent on it (src/db/postgres-pipeline.ts). */
export const columnBytesReaders = new WeakMap<object, ColumnBytesReader>();

/** A node-postgres client whose connection reads the socket through a ColumnBytesReader (pg.Pool's `Client`). */
export class ColumnBytesClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const connection = this.connection as unknown as ConnectionInternals;
    const attach = connection.attachListeners.bind(connection);
    connection.attachListeners = (stream) => {
      // pg-protocol subscribes to the stream's 'data' and 'end': it gets 'end' from the stream, and its data from
      // the reader.
      let parse: ((messages: Buffer) => void) | undefined;
      const relay = {
        on(event: string, listener: (messages: Buffer) => void) {
          if (event === 'data') parse = listener;
          else stream.on(event, listener);
          return relay;
        },
      };
      attach(relay as unknown as NodeJS.EventEmitter);
      const reader = new ColumnBytesReader((messages) => parse!(messages), (row) => {
        if (connection._emitMessage) connection.emit('message', row);
        connection.emit('dataRow', row);
      });
      columnBytesReaders.set(connection, reader);
      stream.on('data', (chunk: Buffer) => reader.push(chunk));
    };
  }
}
