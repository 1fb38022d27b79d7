import net from 'node:net';

export type TcpProxy = {
  port: number;
  /** Starts accepting again (on the same port) after `stop`. */
  start(): Promise<void>;
  /** Refuses new connections and cuts every open one, like a database that went away. */
  stop(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A TCP proxy to `target` on a port of its own: the tests put it between the service and its
 * PostgreSQL server to make the database unreachable and reachable again.
 */
export async function tcpProxy(
  target: { host: string; port: number },
  options: { listening?: boolean; port?: number; cutFirstAnswer?: boolean } = {},
): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  // `cutFirstAnswer`: the first connection reaches the target whole, but is cut as its answer
  // starts coming back, like a network that fails after the server did the work.
  let cutNext = options.cutFirstAnswer === true;
  let server: net.Server | undefined;
  let port = options.port ?? (await freePort());
  const start = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      if (cutNext) {
        cutNext = false;
        client.pipe(upstream);
        upstream.once('data', () => {
          client.destroy();
          upstream.destroy();
        });
      } else client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  };
  const stop = async () => {
    const closing = server ? new Promise((resolve) => server!.close(resolve)) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    await closing;
    server = undefined;
  };
  if (options.listening !== false) await start();
  return {
    get port() {
      return port;
    },
    start,
    stop,
    close: stop,
  };
}

/** A port nothing listens on (bound once by the OS, then released). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
