/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore: cutting drops every open connection and
 * refuses new ones, as a crashed or restarting database server would, without touching the server other
 * tests share. Stalling keeps every connection open but lets nothing through any more, in either direction, and
 * new connections open but get nothing either: a network that silently drops packets.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stall(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    if (stalled) return;
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    port,
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    stall: () => {
      stalled = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}

/** A proxy in front of the PostgreSQL database at `url`, and the URL that reaches that database through it. */
export async function proxyPostgres(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  target.port = String(proxy.port);
  return { proxy, url: target.toString() };
}
