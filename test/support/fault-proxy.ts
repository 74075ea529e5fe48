import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * What the proxy does with connections: `pass` them through; `refuse` them (closed at once, as a
 * dead server's port or a firewall would); answer every request with `503` (an overloaded or failing
 * store); `cut` each connection once `cutAfterBytes` have gone upstream (a link dropping mid-request);
 * `slow` them to `bytesPerSecond` upstream (a congested link).
 */
export type FaultMode = 'pass' | 'refuse' | '503' | 'cut' | 'slow';

const SERVICE_UNAVAILABLE =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>injected fault</Message></Error>';

/**
 * A TCP proxy of our own between Lectern and the real S3 server, to make the store unreachable or
 * failing on demand while the bucket behind it stays real. Changing the mode also breaks the
 * connections already open (kept-alive sockets would otherwise carry on as before).
 */
export class FaultProxy {
  mode: FaultMode = 'pass';
  cutAfterBytes = 512 * 1024;
  bytesPerSecond = 1024 * 1024;
  /** Requests answered 503 and connections refused or cut, for the tests to see the faults happened. */
  faults = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(targetUrl: string): Promise<FaultProxy> {
    const url = new URL(targetUrl);
    const target = { host: url.hostname, port: Number(url.port || 80) };
    const holder: { proxy?: FaultProxy } = {};
    const server = createServer((client) => holder.proxy!.accept(client));
    const proxy = (holder.proxy = new FaultProxy(server, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The S3_ENDPOINT to give Lectern. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  set(mode: FaultMode): void {
    this.mode = mode;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.set('refuse');
    await new Promise((resolve) => this.server.close(resolve));
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    return socket;
  }

  private accept(client: Socket): void {
    this.track(client);
    const mode = this.mode;
    if (mode === 'refuse') {
      this.faults++;
      client.destroy();
      return;
    }
    if (mode === '503') {
      let head = '';
      client.on('data', (data: Buffer) => {
        if (head === undefined) return;
        head += data.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        this.faults++;
        client.end(
          `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/xml\r\nContent-Length: ${SERVICE_UNAVAILABLE.length}\r\nConnection: close\r\n\r\n${SERVICE_UNAVAILABLE}`,
        );
        head = undefined as unknown as string;
      });
      return;
    }
    const upstream = this.track(connect(this.target.port, this.target.host));
    let sent = 0;
    client.on('data', (data: Buffer) => {
      sent += data.length;
      if (mode === 'cut' && sent > this.cutAfterBytes) {
        this.faults++;
        client.destroy();
        upstream.destroy();
        return;
      }
      if (!upstream.write(data)) client.pause();
      if (mode === 'slow') {
        client.pause();
        setTimeout(() => client.resume(), (data.length / this.bytesPerSecond) * 1000);
      }
    });
    upstream.on('drain', () => client.resume());
    upstream.pipe(client);
    client.on('end', () => upstream.end());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
