import fc from 'fast-check';
import { PNG_DATA_URL } from '../support/course-fixtures';
import { routes, type RouteKey } from '../../src/contract/routes';
import type { Call } from './matrix-kit';
import type { World } from './world';

/** Real values of the fuzzed world, so generated requests also reach past "unknown id". */
export interface FuzzPool {
  ids: string[];
  /** Valid-looking field values: names, passwords, dates, URLs, CSV. */
  values: string[];
  /** Real playback paths (child playlists, segments, keys) with their tokens. */
  playback: string[];
  /** Real path segments: renditions, file names, thumbnail files. */
  segments: string[];
  /** The ids and URL the seed bodies use. */
  named: {
    courseA: string;
    courseC: string;
    a1: string;
    a1Url: string;
    student: string;
    spare: string;
    password: string;
    adminUsername: string;
    /** Videos (rows only) the examples may delete: one for the admin API, one for the streamer. */
    doomedRow: string;
    doomedMedia: string;
    /** A video row with a forensic secret: copies may be uploaded to be traced to it. */
    marked: string;
  };
  /** A real clip, for an upload the examples finalize. */
  clip: Buffer;
  /** A clip long enough to trace (shorter copies are refused), for the trace upload the examples send. */
  traceCopy: Buffer;
}

export function poolOf(
  world: World,
  playback: string[],
  doomed: [string, string],
  trace: { marked: string; copy: Buffer },
): FuzzPool {
  const people = Object.values(world.people);
  return {
    ids: [
      world.courseA,
      world.courseB,
      world.courseC,
      world.a1.id,
      world.b1.id,
      world.admin.id,
      ...people.map((p) => p.id),
    ],
    values: [
      ...people.flatMap((p) => [p.username, p.email, p.rollno, p.name]),
      people[0]!.password,
      '123456',
      '2026-03-01',
      '2026-12-31T00:00:00.000Z',
      PNG_DATA_URL,
      world.a1.url,
      world.thumbnail,
      'lecture.mp4',
      'sha256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
      'rollno,name,email\nFZ-1,Fuzz One,fuzz.one@school.test\n',
    ],
    playback,
    segments: [
      'v180',
      'index.m3u8',
      'seg_00000.ts',
      'poster.jpg',
      'master.m3u8',
      'key',
      world.thumbnail.split('/').pop()!,
    ],
    named: {
      courseA: world.courseA,
      courseC: world.courseC,
      a1: world.a1.id,
      a1Url: world.a1.url,
      student: world.people.student.id,
      spare: world.people.spare.id,
      password: world.people.student.password,
      adminUsername: world.admin.username,
      doomedRow: doomed[0],
      doomedMedia: doomed[1],
      marked: trace.marked,
    },
    clip: world.clip,
    traceCopy: trace.copy,
  };
}

/** The field names of a route's body, query, multipart and header schemas in the route table. */
export function fieldsOf(route: string): string[] {
  const entry = routes[route as RouteKey] as Record<string, unknown> | undefined;
  if (!entry) return [];
  return ['body', 'query', 'multipart', 'headers'].flatMap((part) => {
    const schema = entry[part] as { shape?: Record<string, unknown> } | undefined;
    return schema?.shape ? Object.keys(schema.shape) : [];
  });
}

/** Field names the table's request schemas use anywhere: generated objects pick from these, so schemas see near misses. */
const FIELDS = [...new Set(Object.keys(routes).flatMap(fieldsOf))];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', '', ' ', 'toString', '$where', '0', '_id'];

/** Text meant to break things: control and null characters, markup, SQL, huge, odd Unicode. */
const nastyString = (pool: FuzzPool): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 3, arbitrary: fc.constantFrom(...pool.values, ...pool.ids) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...pool.values, ...pool.ids, 'x'),
          fc.constantFrom('\u0000', '\u0000x', '%00', '\uFFFF', '\uD800', '\u202E'),
        )
        .map(([a, b]) => a + b),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '', ' ', '\u0000', '\t\n', "' or 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '..', '%', '%zz',
        '\uD83D\uDE00', 'e\u0301', '\uFEFF', 'NaN', 'Infinity', '-0', '1e400', '0x10', '[object Object]', 'null',
        'data:image/png;base64,', 'data:image/png;base64,iVBORw0KGgo=', 'data:image/svg+xml;base64,PHN2Zz4=',
        '/stream/videos/00000000-0000-0000-0000-000000000000/master.m3u8', '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff', '2026-02-30', '9999-12-31', '0000-01-01', '+275760-09-13',
      ), // prettier-ignore
    },
    { weight: 1, arbitrary: fc.constantFrom(255, 256, 5_001, 70_000, 1_000_000).map((n) => 'a'.repeat(n)) },
  );

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 5e-324, 3650, 3651, 99_999, 100_000),
);

/** Any JSON value, biased to the awkward. */
export const nastyValue = (pool: FuzzPool): fc.Arbitrary<unknown> =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: nastyString(pool) },
      { weight: 2, arbitrary: nastyNumber },
      { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
      {
        weight: 1,
        arbitrary: fc.dictionary(fc.constantFrom(...FIELDS, ...ODD_KEYS), tie('value'), { maxKeys: 4 }),
      },
    ),
  })).value;

/** Valid bodies per route: the fuzzer breaks one or two fields of these to get past the first check. */
export function seedBodies(pool: FuzzPool): Record<string, Record<string, unknown>> {
  const { courseA, courseC, a1, a1Url, student, spare, doomedRow } = pool.named;
  return {
    'POST /api/signin': { username: 'squenby', password: pool.named.password },
    'POST /api/admin/login': { username: pool.named.adminUsername, password: 'Admin@12345' },
    'POST /api/password/reset': { otp: '123456', newpassword: 'Fuzz@123456' },
    'POST /api/password/forgot': { username: 'squenby' },
    'POST /api/videos': { courseId: courseA },
    'POST /api/rollno': { courseId: courseA },
    'POST /api/progress': { videoId: a1, position: 1, watched: 1, ranges: [[0, 1]], rate: 1 },
    'POST /api/admin/course/create': {
      batch: 4, coursecode: 'FZ1', name: 'Fuzz', description: 'Fuzzed.', startdate: '2026-01-01', enddate: '2026-02-01', thumbnail: PNG_DATA_URL,
    }, // prettier-ignore
    'POST /api/admin/course/update': {
      courseId: courseC, batch: 9, courseCode: 'MXC', name: 'C', description: 'C.', startDate: '2026-01-05', endDate: '2026-12-18',
    }, // prettier-ignore
    'POST /api/admin/course/grantaccess': { courseId: courseC, studentId: spare, days: 2 },
    'POST /api/admin/course/revokeaccess': {
      courseId: courseC,
      studentId: spare,
      accessrevokedreason: 'Fuzz',
    },
    'POST /api/admin/students/dropdown': { courseid: courseA },
    'POST /api/admin/students/access': { videoId: a1, courseId: courseA },
    'POST /api/admin/video/upload': {
      title: 'T',
      description: 'D',
      url: a1Url,
      courses: courseA,
      rollnos: [],
    },
    'POST /api/admin/video/update': {
      videoId: a1,
      title: 'T',
      description: 'D',
      course: courseA,
      thumbnail: PNG_DATA_URL,
    },
    'POST /api/admin/video/grant': { videoId: a1, studentIds: [student] },
    'POST /api/admin/video/revoke': { videoId: a1, studentIds: [spare] },
    'POST /api/admin/delete/video': { videoId: doomedRow },
    'POST /api/admin/students': { rollno: 'FZ-9', name: 'Fuzz Nine', email: 'fuzz.nine@school.test' },
    'POST /api/admin/students/import/preview': {
      csv: 'rollno,name,email\nFZ-2,Fuzz Two,fuzz.two@school.test\n',
    },
    'POST /api/admin/students/import': { csv: 'rollno,name,email\nFZ-3,Fuzz Three,fuzz.three@school.test\n' },
    'POST /api/admin/students/enrol': { courseId: courseC, studentIds: [spare], days: 2 },
    'POST /api/videos/:videoId/notes': { t: 1, text: 'Fuzz note' },
    'PATCH /api/notes/:noteId': { t: 1, text: 'Fuzz note' },
    'POST /api/videos/:videoId/questions': { t: 1, title: 'Fuzz question', text: '```\ncode\n```' },
    'POST /api/questions/:questionId/answers': { text: 'Fuzz answer' },
    'POST /api/questions/:questionId/accept': { answerId: a1 },
    'POST /api/admin/questions/:questionId/status': { status: 'closed' },
    'POST /api/admin/videos/:videoId/checkpoints': {
      t: 1, kind: 'single', prompt: 'Fuzz `x`', choices: ['a', 'b'], answers: [1], required: false, rewindTo: 0,
    }, // prettier-ignore
    'PATCH /api/admin/checkpoints/:checkpointId': {
      t: 2,
      kind: 'output',
      answers: ['1\n2'],
      required: false,
    },
    'POST /api/checkpoints/:checkpointId/attempts': { answer: [0, 1] },
    'POST /api/admin/live-classes': {
      courseId: courseC,
      title: 'Fuzz class',
      description: 'D',
      startsAt: '2026-03-02T10:00:00.000Z',
      minutes: 30,
    },
    'PATCH /api/admin/live-classes/:classId': { title: 'Fuzz class', minutes: 45 },
    // nginx's rtmp callbacks: a well-formed key of no class (refused 403 whoever sends it).
    'POST /api/live/rtmp/publish': { name: 'f'.repeat(32), app: 'live', addr: '192.0.2.9', call: 'publish' },
    'POST /api/live/rtmp/done': {
      name: 'f'.repeat(32),
      app: 'live',
      addr: '192.0.2.9',
      call: 'publish_done',
    },
    'POST /api/admin/certificates/:certificateId/revoke': { reason: 'Fuzz' },
  };
}

/** Percent-encoding that also sends lone surrogates, as the invalid UTF-8 bytes they would be. */
function pct(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(char);
  }
  return out;
}

/** Printable header text (no CR, LF or NUL: those never leave the client), Latin-1 included. */
const headerText = fc
  .array(
    fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f),
    { maxLength: 60 },
  )
  .map((codes) => String.fromCharCode(...codes).trim());

/** Mostly no extra headers; else one to three of these, each a way to confuse a route. */
const headers = (pool: FuzzPool): fc.Arbitrary<Record<string, string>> => {
  const one = fc.oneof(
    fc.tuple(
      fc.constant('content-type'),
      fc.constantFrom(
        'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain',
        'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=', 'application/octet-stream',
        'application/vnd.apple.mpegurl', '*/*', 'json',
      ), // prettier-ignore
    ),
    fc.tuple(
      fc.constant('filename'),
      fc.oneof(
        headerText,
        fc.constantFrom(
          'lecture.mp4',
          'matrix-spare.mp4',
          '%00',
          '%E0%A4%A',
          '..%2F..%2Fx',
          encodeURIComponent('ü\u0000.mp4'),
        ),
      ),
    ),
    fc.tuple(
      fc.constant('range'),
      fc.oneof(
        headerText,
        fc.constantFrom(
          'bytes=0-0',
          'bytes=-1',
          'bytes=5-1',
          'bytes=0-99999999999',
          'bytes=0-1,3-4',
          'bytes=x',
        ),
      ),
    ),
    fc.tuple(fc.constant('accept-encoding'), fc.constantFrom('gzip', 'br', 'identity', 'gzip;q=0', '*', 'x')),
    fc.tuple(fc.constant('if-none-match'), headerText),
    fc.tuple(
      fc.constant('authorization'),
      fc.oneof(
        fc.constant('Bearer '),
        headerText.map((t) => `Bearer ${t}`),
        headerText,
      ),
    ),
    fc.tuple(fc.constant('origin'), fc.constantFrom('null', 'http://127.0.0.1', 'file://', '::')),
    fc.tuple(
      fc.constant('cookie'),
      fc.oneof(
        headerText.map((t) => `token=${t}`),
        fc.constantFrom(...pool.values).map((v) => `token=${pct(v)}`),
      ),
    ),
    fc.tuple(fc.constant('x-forwarded-for'), headerText),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    {
      weight: 2,
      arbitrary: fc.array(one, { minLength: 1, maxLength: 3 }).map((pairs) => Object.fromEntries(pairs)),
    },
  );
};

/** A path parameter: a real id or name, or something hostile (percent-encoded, as a client must send it). */
const param = (pool: FuzzPool): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...pool.ids, ...pool.segments) },
    { weight: 3, arbitrary: nastyString(pool).map((s) => pct(s).slice(0, 4000)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%00', '%', '%2e%2e', '..%2f..%2fetc', '%C0%AE', 'A'.repeat(3000), '%F0%9F'),
    },
    { weight: 1, arbitrary: fc.constantFrom(...pool.ids).map((id) => id.toUpperCase()) },
  );

const query = (pool: FuzzPool): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom(...FIELDS, ...ODD_KEYS, 'a[b]', 'courseId[]'), nastyString(pool)), {
          maxLength: 4,
        })
        .map((pairs) =>
          pairs.length ? `?${pairs.map(([k, v]) => `${pct(k)}=${pct(v).slice(0, 8000)}`).join('&')}` : '',
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?',
        '?%',
        '?=&=',
        '?t',
        '?t=&t=',
        '?fileName=a&fileName=b',
        '?page=0',
        '?pageSize=1e9',
        '?format=csv',
        '?format=csv&filter=at-risk&sort=lastActivity&order=desc',
      ),
    },
  );

type Part = { k: string; v: string } | { k: string; bytes: Uint8Array; name: string };

const toForm = (parts: Part[]) => () => {
  const form = new FormData();
  for (const part of parts) {
    if ('bytes' in part) form.append(part.k, new Blob([new Uint8Array(part.bytes)]), part.name || 'blob');
    else form.append(part.k, part.v);
  }
  return form;
};

/** An upload chunk nearly as the uploader sends it: a name, a start, maybe a checksum, the file, in some order. */
const chunkParts = (pool: FuzzPool): fc.Arbitrary<Part[]> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('fuzz.mp4', 'lecture.mp4', 'ü.mkv', 'a'.repeat(256)) },
        { weight: 1, arbitrary: nastyString(pool) },
      ),
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom('0', '0', '0', '1', '16', '-1', '1e3', '99999999999999999', ' 0'),
        },
        { weight: 1, arbitrary: nastyString(pool) },
      ),
      fc.option(
        fc.oneof(
          fc.constant(`sha256=${'A'.repeat(43)}=`),
          nastyString(pool).map((v) => `sha256=${v}`),
        ),
        { freq: 2 }, // half the chunks carry no checksum, so some are accepted
      ),
      fc.uint8Array({ maxLength: 4096 }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([fileName, start, checksum, bytes, fileFirst, twoFiles]) => {
      const fields: Part[] = [
        { k: 'fileName', v: fileName },
        { k: 'start', v: start },
        ...(checksum === null ? [] : [{ k: 'checksum', v: checksum }]),
      ];
      const files: Part[] = [
        { k: 'file', bytes, name: 'blob' },
        ...(twoFiles ? [{ k: 'file', bytes, name: 'b' }] : []),
      ];
      return fileFirst ? [...files, ...fields] : [...fields, ...files];
    });

/** A multipart body: fields and files in any order, names right or wrong. */
const multipart = (pool: FuzzPool): fc.Arbitrary<() => FormData> =>
  fc.oneof(chunkParts(pool).map(toForm), anyParts(pool).map(toForm));

const anyParts = (pool: FuzzPool): fc.Arbitrary<Part[]> =>
  fc.array(
    fc.oneof(
      fc
        .tuple(fc.constantFrom('fileName', 'start', 'checksum', ...FIELDS, ...ODD_KEYS), nastyString(pool))
        .map(([k, v]) => ({ k, v })),
      fc
        .tuple(
          fc.constantFrom('file', 'file', 'fileName', 'x'),
          fc.uint8Array({ maxLength: 2048 }),
          fc.string({ maxLength: 20 }),
        )
        .map(([k, bytes, name]) => ({ k, bytes, name })),
    ),
    { maxLength: 6 },
  );

/** Bodies that parsers and validators choke on, sent raw. */
const RAW_BODIES: { body: string; type: string }[] = [
  { body: '', type: 'application/json' },
  { body: '{', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: '[1,2,3]', type: 'application/json' },
  { body: '{"__proto__":{"admin":true}}', type: 'application/json' },
  { body: '{"constructor":{"prototype":{"admin":true}}}', type: 'application/json' },
  { body: '{"a":1,"a":2}', type: 'application/json' },
  { body: '\uFEFF{}', type: 'application/json' },
  { body: '{"username":"\\u0000","password":"\\u0000"}', type: 'application/json' },
  { body: '{"courseId":"\\ud800"}', type: 'application/json' },
  { body: '['.repeat(100_000) + ']'.repeat(100_000), type: 'application/json' },
  { body: '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000), type: 'application/json' },
  { body: `{"csv":"${'a,'.repeat(500_000)}"}`, type: 'application/json' },
  { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  {
    body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
    type: 'multipart/form-data; boundary=x',
  },
  { body: '--x--\r\n', type: 'multipart/form-data; boundary=x' },
  { body: 'garbage', type: 'multipart/form-data; boundary=' + 'b'.repeat(200) },
  { body: '<xml/>', type: 'application/xml' },
];

/** A generated request to `route` (`METHOD /url/:param`). */
export function requestTo(route: string, pool: FuzzPool): fc.Arbitrary<Call> {
  const [method, template] = route.split(' ') as [string, string];
  const params = template.split('/').filter((s) => s.startsWith(':'));
  const seeds = seedBodies(pool);
  const seed = seeds[route];
  const path = fc
    .tuple(fc.array(param(pool), { minLength: params.length, maxLength: params.length }), query(pool))
    .map(([values, q]) => {
      let i = 0;
      return template.replace(/:[A-Za-z]+/g, () => values[i++]!) + q;
    });
  // Real token-bearing playback URLs, with their queries broken or not.
  const playback =
    template.startsWith('/stream/videos/:id/') && pool.playback.length
      ? fc
          .tuple(
            fc.constantFrom(...pool.playback),
            fc.oneof(
              fc.constant(''),
              query(pool).map((q) => q.replace('?', '&')),
            ),
          )
          .map(([p, q]) => p + q)
      : undefined;
  const anyPath = playback ? fc.oneof(path, playback) : path;

  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
    return fc.record({ method: fc.constant(method), path: anyPath, headers: headers(pool) });
  }
  const mutated = seed
    ? fc
        .tuple(
          fc.dictionary(fc.constantFrom(...Object.keys(seed), ...FIELDS, ...ODD_KEYS), nastyValue(pool), {
            maxKeys: 2,
          }),
          fc.subarray(Object.keys(seed)),
        )
        .map(([changes, drop]) => {
          const body: Record<string, unknown> = { ...seed };
          for (const key of drop.slice(0, 1)) delete body[key];
          for (const [key, value] of Object.entries(changes)) {
            Object.defineProperty(body, key, { value, enumerable: true, configurable: true, writable: true });
          }
          return body;
        })
    : fc.dictionary(fc.constantFrom(...fieldsOf(route), ...FIELDS, ...ODD_KEYS), nastyValue(pool), {
        maxKeys: 6,
      });
  const body: fc.Arbitrary<Partial<Call>> = fc.oneof(
    { weight: 5, arbitrary: mutated.map((json) => ({ json })) },
    { weight: 2, arbitrary: nastyValue(pool).map((json) => ({ json })) },
    { weight: 2, arbitrary: multipart(pool).map((form) => ({ form })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW_BODIES)
        .map(({ body, type }) => ({ body, headers: { 'content-type': type } })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  return fc.tuple(anyPath, headers(pool), body).map(([p, h, b]) => ({
    method,
    path: p,
    ...b,
    // A JSON or raw body keeps its own content type unless the generated headers replace it (a lie worth telling).
    headers: { ...b.headers, ...h },
  }));
}

/** The route's path with real values for its parameters (a video the examples may delete for DELETE). */
function realPath(method: string, template: string, pool: FuzzPool): string {
  const real: Record<string, string> = {
    id: method === 'DELETE' ? pool.named.doomedMedia : pool.named.a1,
    studentId: pool.named.spare,
    videoId: pool.named.a1,
    courseId: pool.named.courseA,
    rendition: 'v180',
    file: template.startsWith('/thumbnails') ? pool.segments.at(-1)! : 'index.m3u8',
  };
  return template.replace(/:([A-Za-z]+)/g, (_, name: string) => real[name] ?? 'x');
}

/** A multipart body from fields and one file part, in that order. */
const formOf =
  (fields: Record<string, string>, file: Uint8Array = new Uint8Array(16)) =>
  () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(file)]), 'blob');
    return form;
  };

/** Name of the upload the examples make and finalize. */
const EXAMPLE_UPLOAD = 'fuzz-example.mp4';

/**
 * Requests every route gets whatever the random runs do: the valid request (so every route is
 * passed at least once), each hostile raw body, a null byte in each field of the valid body, an
 * oversized body, and a null byte in each path parameter. Sent in this order.
 */
export function examplesFor(route: string, pool: FuzzPool): Call[] {
  const [method, template] = route.split(' ') as [string, string];
  const path = realPath(method, template, pool);
  const seed = seedBodies(pool)[route];
  const out: Call[] = [];
  if (route === 'POST /stream/upload-chunk') {
    out.push({ method, path, form: formOf({ fileName: EXAMPLE_UPLOAD, start: '0' }, pool.clip) });
  } else if (route === 'POST /stream/upload') {
    out.push({ method, path, headers: { filename: EXAMPLE_UPLOAD } });
  } else if (route === 'POST /api/admin/trace-runs') {
    out.push({ method, path, form: formOf({ videoId: pool.named.marked }, pool.traceCopy) });
  } else if (route === 'GET /stream/upload-status') {
    out.push({ method, path: `${path}?fileName=${EXAMPLE_UPLOAD}` });
  } else {
    out.push({ method, path, json: seed });
  }
  template.split('/').forEach((segment, i, all) => {
    if (!segment.startsWith(':')) return;
    const broken = realPath(method, all.map((s, j) => (j === i ? `${s}%00` : s)).join('/'), pool);
    out.push({ method, path: broken });
  });
  out.push({ method, path: `${path}?fileName=%00&courseId=%00&q=%00&t=%00` });
  if (method === 'GET' || method === 'DELETE') return out;
  for (const { body, type } of RAW_BODIES)
    out.push({ method, path, body, headers: { 'content-type': type } });
  out.push({ method, path, json: { csv: 'x'.repeat(5 * 1024 * 1024) } });
  for (const key of Object.keys(seed ?? {})) {
    const value = seed![key];
    const broken = Array.isArray(value) ? [`${value[0] ?? 'x'}\u0000`] : `${String(value)}\u0000`;
    out.push({ method, path, json: { ...seed, [key]: broken } });
  }
  out.push({ method, path, form: formOf({ fileName: 'x\u0000.mp4', start: '0' }) });
  out.push({ method, path, form: formOf({ fileName: 'nul.mp4', start: '0\u0000' }) });
  return out;
}
