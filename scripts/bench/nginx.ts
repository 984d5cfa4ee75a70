/**
 * nginx serving the same dist/ as a yardstick for the Painel server: a throwaway config in a
 * temporary folder, one worker, in the foreground (daemon off) as a child process of the run.
 *
 * Debian's nginx has no brotli in its core (the brotli modules are separate packages), so the
 * `.br` siblings are sent with `try_files $uri.br` and an explicit `Content-Encoding: br`, which is
 * what brotli_static would do; gzip uses nginx's own gzip_static.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { freePortSync } from '../free-port'
import { childPids } from './cpu'
import { hasExited, makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { probe } from './http-probe'
import { sleep } from './stats'

export const NGINX_INSTALL_HINT =
  'nginx is not installed, so the nginx columns are skipped. To compare with it: ' +
  'sudo apt-get install -y nginx (Debian/Ubuntu), then npm run bench again.'

export const NGINX_SETUP =
  'nginx: 1 worker, sendfile + tcp_nopush, access_log off, gzip_static on; br = the .br sibling ' +
  'through try_files + add_header Content-Encoding br (no brotli module); same Cache-Control, ' +
  'Vary and ETag as Painel, not its security headers'

const CANDIDATES = [
  'nginx',
  '/usr/sbin/nginx',
  '/usr/local/sbin/nginx',
  '/usr/local/nginx/sbin/nginx',
]

export interface NginxInstall {
  path: string
  version: string
}

/** The installed nginx and its version (`nginx -v` writes to stderr), or null. */
export function findNginx(): NginxInstall | null {
  for (const path of CANDIDATES) {
    if (path.startsWith('/') && !existsSync(path)) continue
    const result = spawnSync(path, ['-v'], { encoding: 'utf8', timeout: 5_000 })
    if (result.error || result.status !== 0) continue
    const version = /nginx\/(\S+)/.exec(`${result.stderr}${result.stdout}`)?.[1]
    if (version) return { path, version }
  }
  return null
}

/** Content types as Painel sends them (server/static/static-file-table.ts), by extension. */
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  svg: 'image/svg+xml',
  json: 'application/json',
  txt: 'text/plain',
  map: 'application/json',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
}

const PAGE_HEADERS = ['add_header Cache-Control "no-cache";', 'add_header Vary Accept-Encoding;']
const ASSET_HEADERS = [
  'add_header Cache-Control "public, max-age=31536000, immutable";',
  'add_header Vary Accept-Encoding;',
]
// Empty unless try_files picked a .br file; nginx sends no header for an empty value.
const BR_ENCODING = 'add_header Content-Encoding $br_encoding;'

const block = (head: string, lines: readonly string[], indent = '    ') =>
  [`${indent}${head} {`, ...lines.map((line) => `${indent}  ${line}`), `${indent}}`].join('\n')

/**
 * The whole of nginx's configuration file. `extensions`: those of the files under dist/assets, each of which gets
 * a location that serves its .br sibling under the original content type.
 */
export function nginxConf(options: {
  distDir: string
  port: number
  workDir: string
  extensions: readonly string[]
}): string {
  const { distDir, port, workDir } = options
  const extensions = options.extensions.filter((ext) => ext !== 'br' && ext !== 'gz')
  const typeOf = (ext: string) => CONTENT_TYPES[ext] ?? 'application/octet-stream'
  const assetLocations = extensions.map((ext) =>
    block(`location ~ ^/assets/[^/]+\\.${ext}$`, [
      `types { ${typeOf(ext)} ${ext} br; }`,
      ...ASSET_HEADERS,
      BR_ENCODING,
      'try_files $uri$br_suffix $uri =404;',
    ]),
  )
  const page = [
    'types { text/html html br; }',
    ...PAGE_HEADERS,
    BR_ENCODING,
    'try_files /index.html$br_suffix /index.html =404;',
  ]
  return `# Written by scripts/bench/nginx.ts for one benchmark run; deleted afterwards.
worker_processes 1;
daemon off;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;

events {
  worker_connections 1024;
}

http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  server_tokens off;
  # Node keeps a connection for any number of requests; nginx's default (1000) would make the
  # load generator reconnect and measure that instead of serving.
  keepalive_requests 1000000;
  client_body_temp_path ${workDir}/client_body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;

  types {
${Object.entries(CONTENT_TYPES)
  .map(([ext, type]) => `    ${type} ${ext};`)
  .join('\n')}
  }
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/html text/css text/javascript application/json text/plain image/svg+xml;

  etag on;
  gzip off;
  gzip_static on;

  map $http_accept_encoding $br_suffix {
    default "";
    "~*\\bbr\\b" ".br";
  }
  map $uri $br_encoding {
    default "";
    "~\\.br$" "br";
  }

  server {
    listen 127.0.0.1:${port};
    root ${distDir};

${block('location = /', page)}
${block('location = /index.html', page)}
    # The siblings are an implementation detail, as in Painel (404 there too).
    location ~ \\.(br|gz)$ {
      return 404;
    }
${assetLocations.join('\n')}
${block('location /assets/', [...ASSET_HEADERS, 'try_files $uri =404;'])}
    location / {
      return 404;
    }
  }
}
`
}

export interface RunningNginx {
  baseURL: string
  version: string
  conf: string
  /** The master and its worker (for CPU accounting). */
  pids: () => number[]
  stop: () => Promise<void>
}

export async function startNginx(install: NginxInstall, distDir: string): Promise<RunningNginx> {
  const workDir = makeTempDir('painel-bench-nginx-')
  const files = await readdir(join(distDir, 'assets'))
  const extensions = [...new Set(files.map((file) => extname(file).slice(1)).filter(Boolean))]
  const port = freePortSync()
  const conf = nginxConf({ distDir, port, workDir, extensions })
  const confPath = join(workDir, 'nginx.conf')
  writeFileSync(confPath, conf)
  // -e: the error log before the config is read (else /var/log/nginx, maybe not writable).
  const args = ['-p', workDir, '-c', confPath, '-e', join(workDir, 'error.log')]

  const test = spawnSync(install.path, ['-t', '-q', ...args], { encoding: 'utf8', timeout: 10_000 })
  if (test.status !== 0) {
    removeTempDir(workDir)
    throw new Error(`nginx rejected the benchmark config:\n${test.stderr}`)
  }

  const child = spawnTracked(install.path, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const baseURL = `http://127.0.0.1:${port}`
  const stop = async () => {
    // Noted first: should the master have to be killed, its worker would live on without it.
    const workers = child.pid === undefined ? [] : childPids(child.pid)
    // SIGTERM: nginx's fast shutdown, the master stops its worker and exits.
    await stopChild(child, { signal: 'SIGTERM', graceMs: 5_000 })
    for (const pid of workers) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone, as it should be
      }
    }
    removeTempDir(workDir)
  }

  const deadline = performance.now() + 10_000
  for (;;) {
    if (hasExited(child)) {
      removeTempDir(workDir)
      throw new Error(`nginx exited at start: ${stderr}`)
    }
    try {
      await probe(`${baseURL}/`, {}, 1_000)
      break
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop()
      throw new Error(`nginx did not answer on ${baseURL} within 10 s: ${stderr}`)
    }
    await sleep(20)
  }
  const pids = () => (child.pid === undefined ? [] : [child.pid, ...childPids(child.pid)])
  return { baseURL, version: install.version, conf, pids, stop }
}
