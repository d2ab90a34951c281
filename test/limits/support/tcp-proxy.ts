/** A TCP proxy that can be cut and restored, to take Redis away from a running app and give it back. */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops accepting and drops every open connection. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const makeServer = () =>
    net.createServer((client) => {
      const upstream = net.connect(targetPort, targetHost);
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  let server = makeServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const cut = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  };
  return {
    port,
    cut,
    async restore() {
      server = makeServer();
      await listen(port);
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}
