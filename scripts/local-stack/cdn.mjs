// A real shared cache in front of the site, as a CDN would be: nginx with proxy_cache (Debian's
// nginx-light; scripts/test/setup.sh installs it where apt runs as root). Also serves a folder as plain
// static files, for the bench's comparison. Everything it writes lives in a temporary folder.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ERROR_CACHE_CONTROL, securityHeaders } from "../../app/server/security-headers.mjs";
import { freePort, waitForPort } from "./ports.mjs";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const hasNginx = () => existsSync(NGINX);

/** What nginx sends the site in each forwarding header, whatever the visitor sent ("" removes it). */
export const FORWARDING_HEADERS = Object.freeze({
  "X-Forwarded-For": "$remote_addr",
  // The site knows its own host (SITE_URL): nothing it needs to be told, so nothing anyone can forge.
  "X-Forwarded-Host": '""',
  "X-Forwarded-Proto": "$scheme",
  "X-Forwarded-Port": "$server_port",
  "X-Real-IP": "$remote_addr",
  Forwarded: '""',
  "X-Forwarded-Server": '""',
  "X-Original-URL": '""',
  "X-Rewrite-URL": '""',
});

/**
 * Every status nginx can make itself, rather than pass on from the site: a request it cannot read (400,
 * and 494 for headers too large), a method it does not pass (405: TRACE), a body or a path too long
 * (413, 414), a range or a precondition it judges from its cache (416, 412), a client too slow (408), a
 * transfer coding or an HTTP version it does not know (501, 505), the site down or too slow (500, 502,
 * 503, 504), and the rest of its own table, which this configuration may not reach today. Each is sent to
 * an internal location that answers the same status with the site's own headers (security-headers.mjs),
 * so they carry what every answer of the site carries (docs/decisions/032, 037). The site's own errors
 * pass through untouched (proxy_intercept_errors is off).
 */
export const NGINX_OWN_ERRORS = Object.freeze([
  400, 401, 402, 403, 404, 405, 406, 408, 409, 410, 411, 412, 413, 414, 415, 416, 421, 429, 494, 500, 501, 502, 503, 504, 505, 507,
]);

/** The headers of every answer of the site, and an error's Cache-Control: those nginx may also write. */
const theHeaders = ({ production }) => ({ ...securityHeaders({ production }), "Cache-Control": ERROR_CACHE_CONTROL });

/** nginx lines that give each of NGINX_OWN_ERRORS the headers of every answer of the site. */
export function ownErrorPages({ production }) {
  const addHeaders = Object.entries(theHeaders({ production }))
    .map(([name, value]) => `add_header ${name} "${value.replaceAll('"', '\\"')}" always;`)
    .join(" ");
  return NGINX_OWN_ERRORS.map(
    // 494 is nginx's own name for a 400 whose headers were too large: the visitor gets a 400.
    (status) =>
      `    error_page ${status} /.nginx-error/${status};\n` +
      `    location = /.nginx-error/${status} { internal; ${addHeaders} return ${status === 494 ? 400 : status}; }`,
  ).join("\n");
}

/**
 * nginx lines that pass the site's own copies of those headers by `add_header`, not as they came. An
 * answer nginx turns into its own from a cached one (a precondition that fails: 412) would keep the
 * cached answer's headers, and its error page would add the list a second time; headers written by
 * `add_header` belong to the location that answers, so each answer carries each header once: the
 * site's (a document keeps its own policy) or nginx's.
 */
export function siteHeadersOnce({ production }) {
  return Object.keys(theHeaders({ production }))
    .map((name) => `proxy_hide_header ${name}; add_header ${name} $upstream_http_${name.toLowerCase().replaceAll("-", "_")} always;`)
    .join("\n      ");
}

/**
 * Starts nginx on 127.0.0.1:`port`: a caching proxy to `upstream` (honouring the origin's
 * Cache-Control, revalidating with its ETag, serving stale while it updates, one request at a time
 * to the origin per key), or, with `staticRoot`, a static file server for that folder.
 * `originRequests(uri)` counts the requests for `uri` that reached the origin (from nginx's own log).
 * `production`: whether the site behind it is the production build (its answers then carry HSTS, and so
 * do nginx's own).
 * @param {{ upstream?: string, staticRoot?: string, port?: number, production?: boolean }} [options]
 */
export async function startNginx({ upstream, staticRoot, port, production = true } = {}) {
  if (!hasNginx()) throw new Error(`nginx not found at ${NGINX}: run scripts/test/setup.sh (apt-get install nginx-light)`);
  port ??= await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "studio-nginx-"));
  const location = staticRoot
    ? `root ${staticRoot}; index index.html;`
    : `proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # The site knows its own host (SITE_URL): it is sent one that is always valid, even for an HTTP/1.0
      # request without one, and what a visitor writes in Host neither reaches it nor splits the cache.
      proxy_set_header Host $proxy_host;
      # The forwarding headers are the CDN's own, as a CDN at the edge sets them: the visitor's address
      # overwritten (never appended to what the visitor sent), the rest set here or removed, so
      # nothing a visitor writes in them reaches the site (FORWARDING_HEADERS).
${Object.entries(FORWARDING_HEADERS)
  .map(([name, value]) => `      proxy_set_header ${name} ${value};`)
  .join("\n")}
      proxy_cache site;
      proxy_cache_key $scheme$proxy_host$request_uri;
      # A range goes to the site, which answers it (206, or its own 416) with its headers once. Served
      # from the cache, nginx's range filter runs after add_header: a range past the end would become
      # nginx's 416 carrying the cached answer's headers and its error page's too.
      proxy_cache_bypass $http_range;
      proxy_no_cache $http_range;
      proxy_set_header Range $http_range;
      proxy_set_header If-Range $http_if_range;
      proxy_cache_lock on;
      proxy_cache_revalidate on;
      proxy_cache_use_stale updating error timeout http_500 http_502 http_503;
      proxy_cache_background_update on;
      add_header X-Cache $upstream_cache_status always;
      ${siteHeadersOnce({ production })}`;
  const conf = `
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log origin;
  log_format origin '$request_uri $status $upstream_cache_status "$upstream_addr"';
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=site:10m max_size=100m inactive=1d use_temp_path=off;
  types { text/html html; }
  gzip on; gzip_types text/html;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    location / { ${location} }
${staticRoot ? "" : ownErrorPages({ production })}
  }
}`;
  // log_format must come before its use in access_log: nginx reads it in order.
  writeFileSync(path.join(dir, "nginx.conf"), conf.replace(/(\n {2}access_log[^\n]*)(\n {2}log_format[^\n]*)/, "$2$1"));
  const child = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([
    waitForPort(port, 10_000),
    exited.then((code) => {
      throw new Error(`nginx exited with ${code}: ${readFileSync(path.join(dir, "error.log"), "utf8")}`);
    }),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** nginx's main process (run-record.mjs). */
    pid: child.pid,
    /** Requests for `uri` nginx passed to the origin (misses, expired, revalidations), from its access log. */
    originRequests(uri = "/") {
      const log = existsSync(path.join(dir, "access.log")) ? readFileSync(path.join(dir, "access.log"), "utf8") : "";
      return log.split("\n").filter((line) => line.startsWith(`${uri} `) && /"\d+\.\d+\.\d+\.\d+:\d+"/.test(line)).length;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGQUIT");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
