import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: a plain HTTP listener answering GET /metrics (and HEAD) and 404 for anything else.
 * No token: the port is meant for the scraper's network only (METRICS_HOST, 127.0.0.1 by default).
 */
export async function startMetricsListener(
  options: { port: number; host: string },
  render: () => Promise<{ contentType: string; body: string }>,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
        .end('{"message":"Not found."}');
      return;
    }
    render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"message":"Could not collect the metrics."}');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
