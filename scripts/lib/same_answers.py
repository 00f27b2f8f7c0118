#!/usr/bin/env python3
"""Requests every path of a site folder from two servers, Cloudflare's runtime (`wrangler pages
dev`) and `wellgen serve --host cloudflare`, and fails on any difference in status, body or
headers. The paths are the folder's own: every file, every folder with and without its slash,
every page with and without `.html` and `/index`, missing paths at the top and in each folder,
the `from` of every `_redirects` rule, each as GET, HEAD and a CORS preflight OPTIONS; and as
GET only, a path below each file and the pages, folders and redirects with a query. Used by
scripts/check-wrangler.

Usage: same_answers.py DIST RUNTIME_URL PREVIEW_URL   (exit 1 on any difference)
"""
import http.client, os, re, sys, urllib.parse

dist, runtime, preview = sys.argv[1:4]

# Left out of the comparison, each for its reason:
NOT_COMPARED = {
    "date": "the time of the answer",
    "etag": "wrangler's hash of the file (the preview sends none, and no 304 either)",
    "x-server-env": "wrangler's mark of its dev server (`dev`), not sent by Pages itself",
    "transfer-encoding": "how the body travels",
    "content-length": "how the body travels",
    "connection": "how the connection is kept",
    "keep-alive": "how the connection is kept",
}
# One answer of `wrangler pages dev` is its own failure, not Pages' behaviour: a path below a
# file (`/data.json/`, `/_headers`, whose lookup of `…/index.html` meets ENOTDIR) gets 502
# there, and from Pages what any missing path gets, as its deploy has no such file: its nearest
# 404.html with 404, or the index page with 200 in a single-page app (`missing_status`).
DEV_FAILURE = re.compile(rb"^\[wrangler\] Could not serve static asset: .*ENOTDIR")


def missing_status(path):
    """What Pages answers a path it has no file for: 404 where a 404.html stands in a folder on
    the way up, else 200 (the index page) where there is an index.html."""
    folder = urllib.parse.unquote(path.split("?")[0])
    while folder:
        folder = folder[: folder.rfind("/")] if "/" in folder else folder[:-1]
        if os.path.isfile(os.path.join(dist, folder.lstrip("/"), "404.html")):
            return 404
    return 200 if os.path.isfile(os.path.join(dist, "index.html")) else 404


class Server:
    def __init__(self, base):
        self.host = urllib.parse.urlsplit(base).netloc
        self.conn = None

    def ask(self, method, path):
        """Status, headers (lower-case name -> values in order) and body."""
        headers = {"Origin": "https://agent.example", "Access-Control-Request-Method": "GET"} \
            if method == "OPTIONS" else {}
        for attempt in (1, 2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, timeout=20)
                self.conn.request(method, path, headers=headers)
                r = self.conn.getresponse()
                body = r.read()
                got = {}
                for name, value in r.getheaders():
                    got.setdefault(name.lower(), []).append(value)
                if r.will_close:
                    self.conn.close()
                    self.conn = None
                return r.status, got, body
            except (http.client.HTTPException, OSError):
                if self.conn:
                    self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise


def quote(path):
    return urllib.parse.quote(path, safe="/:@!$&'()*+,;=-._~?")


def site_paths():
    """Paths asked with every method, and paths asked with GET only (below a file, and with a
    query: the answers that differ from their path's only in the body or the Location)."""
    paths = {"/", "/no-such-page", "/no-such-folder/", "/no/such/deep/page", "/index",
             "/index.html"}
    get_only = set()
    for folder, dirs, files in os.walk(dist):
        dirs.sort()
        rel = "/" + os.path.relpath(folder, dist).replace(os.sep, "/")
        rel = "" if rel == "/." else rel
        if rel:
            paths |= {rel, rel + "/", rel + "/index", rel + "/no-such-page"}
        for name in files:
            path = f"{rel}/{name}"
            paths.add(path)
            get_only.add(path + "/")
            if name.endswith(".html"):
                stem = path[: -len(".html")]
                paths |= {stem, stem + "/"}
                get_only |= {path + "?q=1", stem + "?q=1", stem + "/?q=1"}
    redirects = os.path.join(dist, "_redirects")
    if os.path.exists(redirects):
        for line in open(redirects, encoding="utf-8").read().splitlines():
            words = line.split()
            if len(words) >= 2 and words[0].startswith("/"):
                # A placeholder and a splat get a value each.
                sample = re.sub(r":[A-Za-z]\w*", "x1", words[0]).replace("*", "a/b")
                paths.add(sample)
                get_only.add(sample + "?q=1")
    for folder in [p for p in paths if p.endswith("/")]:
        get_only.add(folder + "?q=1")
    paths |= {"/api/discovery?format=openapi", "/api/discovery?format=openapi&x=1",
              "/api/discovery?format=yaml"}
    return [(p, ("GET", "HEAD", "OPTIONS")) for p in sorted(paths)] + \
        [(p, ("GET",)) for p in sorted(get_only - paths)]


def compared(headers):
    return {n: v for n, v in headers.items() if n not in NOT_COMPARED}


a, b = Server(runtime), Server(preview)
problems, requests, dev_failures = [], 0, 0
failed_get = set()
paths = site_paths()
for path, methods in paths:
    for method in methods:
        target = quote(path)
        (sa, ha, ba), (sb, hb, bb) = a.ask(method, target), b.ask(method, target)
        requests += 1
        where = f"{method} {path}"
        if sa == 502 and (DEV_FAILURE.match(ba) or method == "HEAD" and path in failed_get):
            failed_get.add(path)
            dev_failures += 1
            if sb != missing_status(path):
                problems.append(f"{where}: wrangler's dev server fails (502), Pages answers "
                                f"{missing_status(path)}; wellgen serve answered {sb}")
            continue
        if sa != sb:
            problems.append(f"{where}: status {sa} from wrangler, {sb} from wellgen serve")
            continue
        if method == "GET" and ba != bb:
            problems.append(f"{where}: bodies differ ({len(ba)} bytes from wrangler, {len(bb)} "
                            f"from wellgen serve): {ba[:60]!r} / {bb[:60]!r}")
        ca, cb = compared(ha), compared(hb)
        for name in sorted(set(ca) | set(cb)):
            if ca.get(name) != cb.get(name):
                problems.append(f"{where}: {name} {ca.get(name)} from wrangler, "
                                f"{cb.get(name)} from wellgen serve")

for p in problems[:40]:
    print("  " + p, file=sys.stderr)
if len(problems) > 40:
    print(f"  … and {len(problems) - 40} more", file=sys.stderr)
print(f"{requests} requests on {len(paths)} paths compared ({dev_failures} dev-server 502s "
      f"answered as missing paths), {len(problems)} differences; not compared: "
      f"{', '.join(sorted(NOT_COMPARED))}")
sys.exit(1 if problems else 0)
