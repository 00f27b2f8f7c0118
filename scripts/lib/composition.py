#!/usr/bin/env python3
"""A site's own `_headers` beside wellgen's, answered by two servers: Cloudflare's runtime and
`wellgen serve --host cloudflare`. Checks, on every wellgen document (GET, and a CORS preflight
`OPTIONS`), exactly one `Access-Control-Allow-Origin: *` and wellgen's own Cache-Control; on the
site's pages, the site's headers untouched; and that both servers answer the same status and
the same headers, header for header (RUNTIME, the headers only the runtime sends, aside).
Used by scripts/check-wrangler, beside same_answers.py, which compares every path.

Usage: composition.py DIST RUNTIME_URL PREVIEW_URL SITE_PAGE...   (exit 1 on any problem)
"""
import os, subprocess, sys

dist, runtime, preview, *site_pages = sys.argv[1:]

# Sent by the runtime only: transport headers, the time, wrangler's ETag (a hash of the file)
# and its mark of a dev server (`x-server-env: dev`). The headers Pages adds to every answer
# (Access-Control-Allow-Origin, Referrer-Policy, X-Content-Type-Options, Cache-Control) are
# compared: `wellgen serve` sends them too.
RUNTIME = {"date", "etag", "transfer-encoding", "content-length", "connection", "keep-alive",
           "server", "x-server-env"}

def fetch(base, path, method="GET"):
    """Status and headers (lower-case names, repeats kept in order)."""
    cmd = ["curl", "-sS", "--max-time", "20", "-D", "-", "-o", "/dev/null", "-X", method]
    if method == "OPTIONS":
        cmd += ["-H", "Origin: https://agent.example", "-H", "Access-Control-Request-Method: GET"]
    out = subprocess.run(cmd + [base + path], capture_output=True, check=True).stdout
    lines = out.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers.setdefault(name.strip().lower(), []).append(value.strip())
    return status, headers

def section_rules():
    """wellgen's blocks: path -> {header name (lower case): value}."""
    rules, current, inside = {}, None, False
    for line in open(os.path.join(dist, "_headers")).read().splitlines():
        if line == "# BEGIN wellgen": inside = True; continue
        if line == "# END wellgen": inside = False; continue
        if not inside or not line.strip() or line.startswith("#"): continue
        if not line[0].isspace():
            current = rules.setdefault(line.strip(), {})
        elif ":" in line and not line.strip().startswith("!"):
            name, value = line.strip().split(":", 1)
            current[name.strip().lower()] = value.strip()
    return rules

def site_rule():
    """The site's `/*` block: header name (lower case) -> value."""
    rule, current = {}, None
    for line in open(os.path.join(dist, "_headers")).read().splitlines():
        if line == "# BEGIN wellgen": break
        if line and not line[0].isspace(): current = line.strip()
        elif current == "/*" and ":" in line:
            name, value = line.strip().split(":", 1)
            rule[name.strip().lower()] = value.strip()
    return rule

errors = []
def same(where, a, b):
    (sa, ha), (sb, hb) = a, b
    if sa != sb:
        errors.append(f"{where}: status {sa} from the runtime, {sb} from wellgen serve")
    for name in sorted((set(ha) | set(hb)) - RUNTIME):
        if ha.get(name) != hb.get(name):
            errors.append(f"{where}: {name} {ha.get(name)} from the runtime, {hb.get(name)} from wellgen serve")

ours, site = section_rules(), site_rule()
checked = 0
for path, want in sorted(ours.items()):
    if "*" in path: continue
    for method in ("GET", "OPTIONS"):
        got = fetch(runtime, path, method)
        same(f"{method} {path}", got, fetch(preview, path, method))
        headers = got[1]
        if method == "GET" and got[0] != 200:
            errors.append(f"GET {path}: status {got[0]}")
        for name in ("access-control-allow-origin", "cache-control"):
            if headers.get(name) != [want[name]]:
                errors.append(f"{method} {path}: {name} {headers.get(name)}, want exactly [{want[name]!r}]")
        checked += 1
# The query route (the worker's, where there is one) answers as the OpenAPI file does.
if os.path.exists(os.path.join(dist, "_worker.js")):
    route = "/api/discovery?format=openapi"
    got = fetch(runtime, route)
    same(f"GET {route}", got, fetch(preview, route))
    want = ours["/api/discovery.openapi.json"]
    for name in ("access-control-allow-origin", "cache-control"):
        if got[1].get(name) != [want[name]]:
            errors.append(f"GET {route}: {name} {got[1].get(name)}, want exactly [{want[name]!r}]")
    checked += 1
for path in site_pages:
    for method in ("GET", "OPTIONS"):
        got = fetch(runtime, path, method)
        same(f"{method} {path}", got, fetch(preview, path, method))
        for name, value in site.items():
            if got[1].get(name) != [value]:
                errors.append(f"{method} {path}: {name} {got[1].get(name)}, want the site's [{value!r}]")
        checked += 1

for e in errors:
    print("  " + e, file=sys.stderr)
print(f"{checked} requests compared, {len(errors)} problems")
sys.exit(1 if errors else 0)
