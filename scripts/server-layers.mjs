/**
 * The server's layers, bottom to top: the one list that .dependency-cruiser.mjs turns into rules
 * and `npm run graph` into docs/ARCHITECTURE.md's folder graph and table.
 *
 * A module below src/server/ may import src/contract, its own layer and the layers below, never
 * one above. A part is a folder (`db/`), a file (`clock.ts`) or a list of them; a module
 * belongs to the narrowest part that holds it (a file before a folder, a deeper folder before
 * its parent), so a wiring file may still sit in a platform folder. A folder no part names is a
 * domain, a file directly in src/server/ no part names is wiring.
 */
export const SERVER_LAYERS = [
  {
    name: 'core',
    parts: [
      {
        path: 'db/',
        what: "Drizzle schema, the client (PGlite or PostgreSQL), migrations' checks (their SQL is drizzle-kit's `drizzle/` at the top), ids",
      },
      { path: 'mail/', what: 'the mailer: SMTP, or .eml files in the outbox' },
      { path: 'config/', what: 'settings: every environment variable parsed once into Config' },
      {
        path: ['clock.ts', 'errors.ts', 'signing-key.ts'],
        what: 'the clock, HTTP errors, the HMAC key',
      },
    ],
  },
  {
    name: 'platform',
    parts: [
      {
        path: 'http/',
        what: "the route table's handlers (guard, validation, handler), sessions and guards, the opening gate, origin check, headers, raw answers, the web app, /metrics and the playback health route",
      },
      { path: 'rate-limit/', what: 'rate counters: fixed windows in memory or shared through Redis' },
      { path: 'jobs/', what: 'the job queue in the database, the runner, job types' },
      { path: 'metrics/', what: 'Prometheus metrics, their listener, playback health' },
      { path: 'audit/', what: 'the access history' },
      { path: 'health/', what: '/healthz, /readyz and their checks, draining at shutdown' },
      { path: 'context.ts', what: 'AppContext, the type every service receives' },
    ],
  },
  {
    name: 'storage',
    parts: [
      {
        path: 'storage/',
        what: 'the media stores (a local folder, an S3 bucket), uploads into them, scratch files, the bucket CORS; ffmpeg and ffprobe',
      },
    ],
  },
  {
    name: 'domains',
    others: 'folders',
    parts: [
      { path: 'accounts/', what: 'users, passwords, sessions, sign-in, one-time codes, student import' },
      { path: 'analytics/', what: 'course, video and student statistics, CSV downloads' },
      { path: 'backup/', what: 'backups and restore, their schedule, runs and targets' },
      { path: 'captions/', what: "a video's WebVTT captions" },
      {
        path: 'checkpoints/',
        what: 'questions at a moment of a lecture that hold the key route and clip progress, lecture and course completion',
      },
      { path: 'courses/', what: 'courses, enrolments, the access rule in SQL' },
      {
        path: 'forensic/',
        what: 'leak tracing: the detector, a copy traced back to its sessions, trace runs and uploads',
      },
      { path: 'learning/', what: "students' notes and questions at a moment of a lecture, staff answers" },
      {
        path: 'live/',
        what: 'live classes: scheduling, stream keys, SRT ingest packaged live into the lecture, the recording',
      },
      {
        path: 'certificates/',
        what: 'certificates of completion: Open Badges 3.0 credentials (eddsa-rdfc-2022, did:key), the status list, the PDF',
      },
      {
        path: 'marks/',
        what: "forensic marks: the invisible A/B mark, a session's A/B sequence (the code), the session a marked playlist follows",
      },
      {
        path: 'mfa/',
        what: "admins' second factor: TOTP, passkeys (WebAuthn) and recovery codes, the sign-in's second step, mfa:reset",
      },
      {
        path: 'media/',
        what: 'upload, packaging into HLS, delivery of playlists, keys and segments, media jobs',
      },
      { path: 'playback/', what: 'playback sessions' },
      { path: 'progress/', what: "watch progress, a watch day in the school's time zone" },
      {
        path: 'search/',
        what: 'the search index of every lecture: caption cues, text on screen (Tesseract), speech; search routes',
      },
      { path: 'students/', what: "the admin's student list and history" },
      { path: 'thumbnails/', what: 'course and video thumbnails' },
      { path: 'videos/', what: 'videos, their grants and secrets, their stream URLs' },
    ],
  },
  {
    name: 'wiring',
    others: 'files',
    parts: [
      {
        path: [
          'app.ts',
          'main.ts',
          'cli.ts',
          'cli-commands.ts',
          'runtime.ts',
          'demo-seed.ts',
          'first-screen.ts',
          'cli/',
        ],
        what: 'builds the app and the context, starts the process, the command line (its commands by subject in cli/), demo content',
      },
      {
        path: 'wiring/',
        what: "the job and health registries and the doctor: they name every domain's handlers and checks",
      },
    ],
  },
];

const SERVER = 'src/server/';
/** The parts no one names: `others` of a layer. */
const OTHER = { folders: '*/', files: '*.ts' };

/** A part's paths: `db/`, or each file of a list. */
export const pathsOf = (part) => [part.path].flat();
/** A layer's part paths, its `others` included. */
const layerPaths = (layer) => [
  ...layer.parts.flatMap(pathsOf),
  ...(layer.others ? [OTHER[layer.others]] : []),
];

/** How narrow a part path is: a file, then deeper folders, then the unnamed rest. */
const narrowness = (p) => (Object.values(OTHER).includes(p) ? 0 : p.endsWith('/') ? p.split('/').length : 99);

/** Whether part path `p` holds the file (a path below src/server/). */
function holds(p, file) {
  if (p === OTHER.folders) return file.includes('/');
  if (p === OTHER.files) return !file.includes('/');
  return p.endsWith('/') ? file.startsWith(p) : file === p;
}

/** Whether part path `inner` lies inside `outer` and is narrower. */
const narrows = (inner, outer) => narrowness(inner) > narrowness(outer) && holds(outer, inner);

const regexOf = (p) => {
  if (p === OTHER.folders) return `^${SERVER}[^/]+/`;
  if (p === OTHER.files) return `^${SERVER}[^/]+\\.ts$`;
  return `^${SERVER}${p.replaceAll('.', '\\.')}${p.endsWith('/') ? '' : '$'}`;
};

/**
 * A layer's modules as dependency-cruiser's `path` and `pathNot`: its parts, less the narrower
 * parts of other layers inside them.
 */
export function layerModules(layer) {
  const own = layerPaths(layer);
  const narrower = SERVER_LAYERS.filter((other) => other !== layer)
    .flatMap(layerPaths)
    .filter((p) => own.some((o) => narrows(p, o)));
  return { path: own.map(regexOf), pathNot: narrower.map(regexOf) };
}

/**
 * The layer (and its index) and part of a module below src/server/, `undefined` elsewhere. A part
 * no one describes (a new folder or file) comes back as `{ path }` alone.
 */
export function placeOf(source) {
  if (!source.startsWith(SERVER)) return undefined;
  const file = source.slice(SERVER.length);
  const candidates = SERVER_LAYERS.flatMap((layer, index) =>
    layerPaths(layer)
      .filter((p) => holds(p, file))
      .map((p) => ({ layer, index, p, part: layer.parts.find((part) => pathsOf(part).includes(p)) })),
  );
  const { layer, index, p, part } = candidates.sort((a, b) => narrowness(b.p) - narrowness(a.p))[0];
  return { layer, index, part: part ?? { path: p === OTHER.files ? file : `${file.split('/')[0]}/` } };
}
