/**
 * The site's front door: what is decided about a request before Express and Remix see it (the HTTP
 * server hands every request here first: http-server.server.ts). Four rules, each closing a class:
 *
 * - **A head the site can read.** The framework makes a URL of the Host and the request target
 *   (`new URL`), and throws on one that is no URL ("Host: [::1", "Host: %", a port past 65535, "*"):
 *   a 500 and a stack trace for what is the client's mistake. A Host that is not a host name, an IPv4
 *   address or a bracketed IPv6 one (with a port of at most 65535), an HTTP/1.1 request without a Host,
 *   or a target that is not a path (`/…`) is refused here (400) instead. A target in absolute form
 *   (`http://host/path`, which HTTP lets a client send to any server) is read as its path, its host
 *   taking the place of Host. X-Forwarded-Host is removed: the site never trusts it, yet the framework
 *   takes a port from it (docs/decisions/037).
 * - **One URL per document.** A GET or HEAD for a path with empty or dot segments ("//", "/./x",
 *   "/a/../") or a trailing slash is redirected (308) to its canonical form, so odd spellings of a
 *   page never cost a render of their own; methods the site does not serve get 405 here. A folder of
 *   public/ ("/photos", "/BUILD/", "/%2F") goes to the 404 page without a redirect: the static files'
 *   handler would add the slash this rule removes, a loop a cache would keep for a day. So does a
 *   path no page can have (undecodable, or with a backslash or a control once decoded), and any path
 *   in a private folder of public/ (the original photos, EXIF included: PRIVATE_FOLDERS).
 * - **The visitor's address from a source the site trusts.** The socket's address, unless TRUST_PROXY
 *   names the proxies in front (Express's "trust proxy" rules, through proxy-addr): then the nearest
 *   X-Forwarded-For hop that is not a trusted proxy. It reaches the app in CLIENT_ADDRESS_HEADER; a
 *   value a visitor sends in that header is removed first.
 * - **Posts from other sites.** For POST, PUT, PATCH and DELETE the Origin (and Sec-Fetch-Site) is
 *   compared with the site's own origins here (SITE_URL's and SITE_ORIGINS, never a header a client
 *   can send such as Host or X-Forwarded-Host), and the verdict passes on in CROSS_SITE_HEADER. The
 *   Origin header is then removed: Remix's own check would otherwise answer a bare 500 before any route
 *   code runs, where the visitor should get the form's 403 page (app/enquiry/action.server.ts).
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";
import type { SiteConfig } from "~/config.server";

/** Set by the front door only: the visitor's address as the site trusts it. */
export const CLIENT_ADDRESS_HEADER = "x-studio-client-address";
/** Set by the front door only, on unsafe methods: "1" when the post comes from another site. */
export const CROSS_SITE_HEADER = "x-studio-cross-site";
/**
 * Set by the front door only: how the request reached the site, for /healthz and `npm run verify`:
 * "direct" (no forwarding header), "trusted-proxy", or "untrusted-proxy" (a forwarding header from a
 * sender TRUST_PROXY does not name: behind a CDN, every visitor would share the CDN's address).
 */
export const FORWARDED_VIA_HEADER = "x-studio-forwarded-via";

const SERVED_METHODS = new Set(["GET", "HEAD", "POST"]);
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type Verdict =
  | { kind: "pass" }
  | { kind: "redirect"; location: string }
  | { kind: "method-not-allowed" }
  /** A Host or a target no URL can be made of (400). */
  | { kind: "unreadable" };

/**
 * Folders of public/ that are never served, whatever the spelling of the path: `npm run images` reads
 * the original photos (with their EXIF: camera, place, time) from here and writes what the page shows.
 */
export const PRIVATE_FOLDERS = ["/photos/source"] as const;

/**
 * Decides about `request` and rewrites its headers in place (the headers above). `siteOrigins` are
 * the origins whose posts are the site's own: SITE_URL's, and SITE_ORIGINS.
 */
export function frontDoor(
  request: IncomingMessage,
  {
    siteOrigins,
    trustProxy,
    publicFolders = new Set(),
  }: {
    siteOrigins: ReadonlySet<string>;
    trustProxy: SiteConfig["trustProxy"];
    /** The folders of public/, as canonical paths ("/", "/photos"): see publicFolders(). */
    publicFolders?: ReadonlySet<string>;
  },
): Verdict {
  const headers = request.headers;
  delete headers[CLIENT_ADDRESS_HEADER];
  delete headers[CROSS_SITE_HEADER];
  delete headers[FORWARDED_VIA_HEADER];
  delete headers["x-forwarded-host"];
  if (!readableHead(request)) return { kind: "unreadable" };
  const method = request.method ?? "GET";
  if (!SERVED_METHODS.has(method)) return { kind: "method-not-allowed" };

  const target = request.url ?? "/";
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (method === "GET" || method === "HEAD") {
    const canonical = canonicalPath(path);
    // A path no page can have (undecodable, or decoding to a backslash, a control or a line break,
    // which the router cannot even parse), or one the static files' handler would take for a folder of
    // public/ (it decodes the path, and Express matches /build in any case, before it adds a slash
    // this rule would take off again): straight to the 404 page, through a path in no folder. The
    // home page is the one folder ("/") that is a page; its encoded spellings ("/%2F") are not.
    const decoded = decodedPath(path);
    const folder = decoded === null ? null : canonicalPath(decoded).toLowerCase();
    if (
      folder === null ||
      UNROUTABLE.test(decoded!) ||
      (publicFolders.has(folder) && (folder !== "/" || decoded !== path)) ||
      isPrivate(folder)
    ) {
      request.url = NOT_FOUND_PATH;
    } else if (canonical !== path) return { kind: "redirect", location: canonical + (queryAt === -1 ? "" : target.slice(queryAt)) };
  }

  headers[CLIENT_ADDRESS_HEADER] = proxyAddr(request, trustProxy.isTrusted) ?? "";
  headers[FORWARDED_VIA_HEADER] = !headers["x-forwarded-for"]
    ? "direct"
    : trustProxy.isTrusted(request.socket.remoteAddress ?? "", 0)
      ? "trusted-proxy"
      : "untrusted-proxy";
  if (UNSAFE_METHODS.has(method)) {
    headers[CROSS_SITE_HEADER] = isSameSite(headers.origin, headers["sec-fetch-site"], siteOrigins) ? "0" : "1";
    delete headers.origin;
  }
  return { kind: "pass" };
}

/** A host name (letters, digits, "-", "_", dots), an IPv4 address or a bracketed IPv6 one, and a port. */
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
/** A target in absolute form: its host part and its path part. */
const ABSOLUTE_TARGET = /^https?:\/\/([^/?#]*)(.*)$/i;

/**
 * Whether a URL can be made of the request's Host and target, as the framework makes it; a target in
 * absolute form is rewritten to its path (and its host becomes the Host) first.
 */
function readableHead(request: IncomingMessage): boolean {
  const absolute = ABSOLUTE_TARGET.exec(request.url ?? "");
  if (absolute) {
    request.headers.host = absolute[1]!;
    const rest = absolute[2]!;
    request.url = rest.startsWith("/") ? rest : `/${rest}`;
  }
  const host = request.headers.host;
  const target = request.url ?? "/";
  if (host === undefined) {
    // HTTP/1.0 has no Host; HTTP/1.1 requires one (Node's own check is off, so its answer carries the headers).
    if (request.httpVersionMajor === 1 && request.httpVersionMinor >= 1) return false;
  } else {
    const match = HOST.exec(host);
    if (!match || Number(match[1] ?? 0) > 65_535) return false;
  }
  return target.startsWith("/") && URL.canParse(`http://${host ?? "localhost"}${target}`);
}

/** Where the front door sends a path that can only be the 404 page: in no folder, matching no route. */
export const NOT_FOUND_PATH = "/__not-found/";
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNROUTABLE = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether `folder` (canonical, lowercased) is a private folder or inside one. */
function isPrivate(folder: string): boolean {
  return PRIVATE_FOLDERS.some((privateFolder) => folder === privateFolder || folder.startsWith(`${privateFolder}/`));
}

function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The path with empty and dot segments resolved and no trailing slash ("/" stays "/"). */
export function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * A post is the site's own when its Origin is one of the site's origins, and the browser does not mark
 * it cross-site. No Origin at all (old browsers, scripts) is treated as the site's own; "null"
 * (sandboxed frames, data: URLs) is not. Nothing the request says about its host (Host,
 * X-Forwarded-Host) counts: a client can send any of them.
 */
export function isSameSite(
  origin: string | undefined,
  fetchSite: string | string[] | undefined,
  siteOrigins: ReadonlySet<string>,
): boolean {
  if (fetchSite === "cross-site") return false;
  if (origin === undefined) return true;
  return siteOrigins.has(origin);
}
