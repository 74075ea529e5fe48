/**
 * The scan bench's gate (bench/scan.ts): an HTTP proxy on a loopback port that every scanner request
 * goes through, on its way to the one Lectern under test.
 *
 * - It counts each run's requests and the status codes Lectern answered (5xx above all).
 * - Used as the scanners' forward proxy (`wapiti -p`, `sqlmap --proxy`), it refuses any request for
 *   another host or port, and CONNECT: a scan can only reach this Lectern, never the Internet.
 * - It serves the scan's start pages under /__scan/ (links to the API's GET routes, an HTML form per
 *   POST route): wapiti 3.0.4 (Debian bookworm) finds what to attack by crawling HTML and only posts
 *   forms. A form posted to a route that takes JSON is re-encoded here as the JSON body the route
 *   reads (numbers and arrays as in the route's sample body), so wapiti's payloads reach the handler
 *   instead of stopping at "415 Unsupported Media Type".
 * - It plays wapiti's SSRF endpoint (/__scan/endpoint/): a request Lectern itself made to one of the
 *   payload URLs would be recorded and reported back to wapiti's ssrf module as a finding.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FieldKind = 'string' | 'number' | 'boolean' | 'string[]';

/** A POST route wapiti attacks through an HTML form: the JSON body it takes, and how form fields map onto it. */
export interface JsonForm {
  /** The route's sample body: fields not in `fields` are sent as they are. */
  template: Record<string, unknown>;
  /** Top-level fields the form carries, and the JSON type each becomes. */
  fields: Record<string, FieldKind>;
}

export interface RunCounts {
  label: string;
  /** Requests forwarded to Lectern. */
  requests: number;
  /** Lectern's answers by status code. */
  statuses: Map<number, number>;
  /** 5xx answers: method, path (query cut at 120 characters) and status, the first 20. */
  serverErrors: { method: string; path: string; status: number }[];
  /** Form posts re-encoded as JSON. */
  reencoded: number;
  /** Requests that never got an answer from Lectern (connection refused or reset, timeout). */
  upstreamFailures: number;
  /** Requests refused because they were for another host (or CONNECT). */
  offTarget: string[];
  /** Requests sent from a rotating loopback address (see ScanProxy's `spread`). */
  spread: number;
  /** 429 answers (a limit held) by path. */
  limited: Map<string, number>;
  /** Requests the proxy's own HTTP parser refused (answered 400, never forwarded). */
  unparsed: number;
}

export interface SsrfHit {
  at: string;
  method: string;
  url: string;
  from: string;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

/** rawHeaders without hop-by-hop ones (and without those in `drop`), as a flat list. */
function passHeaders(raw: string[], drop: string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || drop.includes(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

function readBody(req: IncomingMessage, limit = 8 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A posted form as the JSON body of its route: each field in its JSON type when it parses as one, else as the string sent. */
export function formToJson(form: JsonForm, encoded: string): Record<string, unknown> {
  const params = new URLSearchParams(encoded);
  const body: Record<string, unknown> = { ...form.template };
  for (const name of new Set(params.keys())) {
    const value = params.get(name)!;
    switch (form.fields[name]) {
      case 'number':
        body[name] = value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
        break;
      case 'boolean':
        body[name] = value === 'true' ? true : value === 'false' ? false : value;
        break;
      case 'string[]':
        body[name] = params.getAll(name);
        break;
      default:
        body[name] = value;
    }
  }
  return body;
}

export class ScanProxy {
  /** http://127.0.0.1:port: the scanners' target and proxy both. */
  url = '';
  /** Paths under /__scan/ and what they answer (HTML). */
  readonly pages = new Map<string, string>();
  /** POST routes (path without query) whose form posts are re-encoded as JSON. */
  readonly forms = new Map<string, JsonForm>();
  readonly ssrfHits: SsrfHit[] = [];
  private readonly runs: RunCounts[] = [];
  private current: RunCounts = ScanProxy.emptyRun('(between runs)');
  private readonly server = createServer(
    { requestTimeout: 60_000 },
    (req, res) => void this.handle(req, res),
  );
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly sockets = new Set<Socket>();
  private host = '';

  private spreadNext = 0;

  /** `spread`: paths whose requests leave from rotating loopback addresses (127.0.0.2-127.0.0.251). */
  constructor(
    private readonly lectern: { host: string; port: number },
    private readonly spread: ReadonlySet<string> = new Set(),
  ) {}

  private static emptyRun(label: string): RunCounts {
    return {
      label,
      requests: 0,
      statuses: new Map(),
      serverErrors: [],
      reencoded: 0,
      upstreamFailures: 0,
      offTarget: [],
      spread: 0,
      limited: new Map(),
      unparsed: 0,
    };
  }

  async start(): Promise<this> {
    // CONNECT (an https:// URL through the proxy) goes nowhere.
    this.server.on('connect', (req: IncomingMessage, socket: Socket) => {
      this.current.offTarget.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.on('clientError', (_error, socket: Socket) => {
      this.current.unparsed++;
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.host = `127.0.0.1:${port}`;
    this.url = `http://${this.host}`;
    return this;
  }

  /** Counts what follows under `label`, until the next call. */
  startRun(label: string): RunCounts {
    this.current = ScanProxy.emptyRun(label);
    this.runs.push(this.current);
    return this.current;
  }

  endRun(): void {
    this.current = ScanProxy.emptyRun('(between runs)');
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const run = this.current;
    let target = req.url ?? '/';
    // Forward-proxy form (`GET http://host:port/path`): only this proxy's own address is allowed.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const own =
        url.protocol === 'http:' && [this.host, `localhost:${this.host.split(':')[1]}`].includes(url.host);
      if (!own) {
        run.offTarget.push(`${req.method} ${url.origin}`);
        req.resume();
        res
          .writeHead(403, { 'content-type': 'text/plain' })
          .end('the scan reaches only the Lectern under test');
        return;
      }
      target = url.pathname + url.search;
    }
    if (target.startsWith('/__scan/')) return this.serveOwn(req, res, target);

    run.requests++;
    const pathname = target.split('?')[0]!;
    const form = req.method === 'POST' ? this.forms.get(pathname) : undefined;
    const contentType = String(req.headers['content-type'] ?? '');
    let body: Buffer | undefined;
    let headers = passHeaders(req.rawHeaders);
    if (form && contentType.startsWith('application/x-www-form-urlencoded')) {
      try {
        body = Buffer.from(JSON.stringify(formToJson(form, (await readBody(req)).toString('utf8'))));
      } catch {
        res.writeHead(400).end();
        return;
      }
      run.reencoded++;
      headers = passHeaders(req.rawHeaders, ['content-type', 'content-length', 'transfer-encoding']);
      headers.push('content-type', 'application/json', 'content-length', String(body.length));
    }

    const spread = this.spread.has(pathname);
    if (spread) run.spread++;
    const upstream = httpRequest(
      {
        host: this.lectern.host,
        port: this.lectern.port,
        method: req.method,
        path: target,
        headers,
        agent: this.agent,
        timeout: 60_000,
        ...(spread && { localAddress: `127.0.0.${2 + (this.spreadNext++ % 250)}` }),
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        run.statuses.set(status, (run.statuses.get(status) ?? 0) + 1);
        if (status === 429) run.limited.set(pathname, (run.limited.get(pathname) ?? 0) + 1);
        if (status >= 500 && run.serverErrors.length < 20)
          run.serverErrors.push({ method: req.method ?? '?', path: target.slice(0, 120), status });
        res.writeHead(status, passHeaders(answer.rawHeaders));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      run.upstreamFailures++;
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain' }).end('no answer from Lectern');
      else res.destroy();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  }

  /** The start pages, and wapiti's SSRF endpoint (payload URLs Lectern would fetch, and the results query). */
  private serveOwn(req: IncomingMessage, res: ServerResponse, target: string): void {
    req.resume();
    const pathname = target.split('?')[0]!;
    const page = this.pages.get(pathname);
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    if (pathname.startsWith('/__scan/endpoint/ssrf/')) {
      this.ssrfHits.push({
        at: new Date().toISOString(),
        method: req.method ?? '?',
        url: target,
        from: req.socket.remoteAddress ?? '?',
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (pathname === '/__scan/endpoint/get_ssrf.php') {
      // wapiti's format: { pathId: { hexParameter: [{ url, date, ip, method }] } } for its session id.
      const session = new URLSearchParams(target.split('?')[1] ?? '').get('id') ?? '';
      const found: Record<
        string,
        Record<string, { url: string; date: string; ip: string; method: string }[]>
      > = {};
      for (const hit of this.ssrfHits) {
        const [, , , , sessionId, pathId, hexParam] = hit.url.split('?')[0]!.split('/');
        if (sessionId !== session || !pathId || !hexParam) continue;
        ((found[pathId] ??= {})[hexParam] ??= []).push({
          url: hit.url,
          date: hit.at,
          ip: hit.from,
          method: hit.method,
        });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
      return;
    }
    res.writeHead(404).end();
  }
}
