#!/usr/bin/env python3
"""Requests every document of a built folder from a running server and checks what a host
must get right: status 200, Content-Type (exact where `_headers` names it, else the media type
the extension implies), Cache-Control and CORS exactly as `_headers` says, and the file's bytes;
then the ?format=openapi route, a 404 for a missing manifest, and that host files are not
published. Used by scripts/check-wrangler and scripts/check-servers.

Usage: served.py DIST BASE_URL   (exit 1 on any problem)
"""
import os, subprocess, sys

dist, base = sys.argv[1], sys.argv[2]
HOST_FILES = {"/_headers", "/_redirects", "/_worker.js", "/404.html", "/.wellgen-manifest",
              "/.htaccess", "/wellgen-nginx.conf", "/.nojekyll", "/vercel.json", "/_routes.json",
              "/robots.txt", "/index.md"}

def parse_headers(text):
    rules, current = {}, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] not in " \t":
            current = rules.setdefault(line.strip(), {})
        elif current is not None and ":" in line:
            name, value = line.strip().split(":", 1)
            current[name.strip().lower()] = value.strip()
    return rules

def fetch(path):
    """GET with curl: status, headers (lower-case names; repeats kept) and the body bytes."""
    out = subprocess.run(
        ["curl", "-sS", "--max-time", "20", "-D", "-", "-o", "/dev/stdout", base + path],
        capture_output=True, check=True).stdout
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for l in lines[1:]:
        if ":" in l:
            n, v = l.split(":", 1)
            headers.setdefault(n.strip().lower(), []).append(v.strip())
    return status, headers, body

def one(headers, name):
    values = headers.get(name, [])
    return values[0] if len(values) == 1 else (None if not values else values)

rules = parse_headers(open(os.path.join(dist, "_headers")).read())
def manifest_path(line):
    """A manifest line is `<path> sha256:<hex>`, `<path> section` or `<folder>/ folder` (older
    builds: `<path>`); `None` for a folder."""
    path, _, mark = line.rpartition(" ")
    if mark == "folder":
        return None
    return path if path and (mark.startswith("sha256:") or mark == "section") else line

docs = [p for p in (manifest_path(l) for l in
                    open(os.path.join(dist, ".wellgen-manifest")).read().splitlines())
        if p and p.startswith("/") and p not in HOST_FILES]
inferred = {".json": "application/json", ".txt": "text/plain"}
errors = []
for path in docs:
    expected = rules.get(path)
    if expected is None:
        errors.append(f"{path}: no _headers rule"); continue
    status, headers, body = fetch(path)
    want_body = open(os.path.join(dist, path.lstrip("/")), "rb").read()
    if status != 200: errors.append(f"{path}: status {status}")
    if body != want_body: errors.append(f"{path}: body differs ({len(body)} bytes, file {len(want_body)})")
    ct = one(headers, "content-type")
    if "content-type" in expected:
        if ct != expected["content-type"]:
            errors.append(f"{path}: Content-Type {ct!r}, want {expected['content-type']!r}")
    else:
        ext = os.path.splitext(path)[1]
        media = (ct or "").split(";")[0].strip()
        if media != inferred.get(ext):
            errors.append(f"{path}: Content-Type {ct!r}, want {inferred.get(ext)!r}")
    for name in ("cache-control", "access-control-allow-origin"):
        got = one(headers, name)
        if got != expected.get(name):
            errors.append(f"{path}: {name} {got!r}, want {expected.get(name)!r}")

# The query route exists wherever both files do (the worker, nginx and Apache route it).
if os.path.exists(os.path.join(dist, "api/discovery.openapi.json")) and \
        os.path.exists(os.path.join(dist, "api/discovery")):
    status, headers, body = fetch("/api/discovery?format=openapi")
    want = open(os.path.join(dist, "api/discovery.openapi.json"), "rb").read()
    if status != 200 or body != want:
        errors.append(f"/api/discovery?format=openapi: status {status}, not the OpenAPI bytes")
    status, _, body = fetch("/api/discovery")
    if body != open(os.path.join(dist, "api/discovery"), "rb").read():
        errors.append("/api/discovery: not its own bytes")

# A missing manifest is a 404 (with wellgen's 404.html where there is one), never the index
# page with 200.
status, headers, body = fetch("/.well-known/no-such-manifest")
if status != 404: errors.append(f"missing path: status {status}, want 404")
page = os.path.join(dist, "404.html")
if os.path.exists(page) and body != open(page, "rb").read():
    errors.append("missing path: body is not 404.html")
# Host configuration must not be published, nor the manifest: wellgen's worker answers it with
# 404, its Cloudflare `_redirects` rule sends it to a path with nothing (a 302, then a 404),
# its nginx and Apache rules deny it. (Netlify does not upload dot files at all.)
hidden_files = {"/_headers", "/_redirects", "/_worker.js", "/_routes.json", "/.htaccess",
                "/wellgen-nginx.conf", "/.wellgen-manifest"}
for hidden in sorted(h for h in hidden_files if os.path.exists(os.path.join(dist, h.lstrip("/")))):
    status, headers, _ = fetch(hidden)
    location = one(headers, "location")
    if status in (301, 302, 303, 307, 308) and isinstance(location, str) and location.startswith("/"):
        status, _, _ = fetch(location)
    if status == 200: errors.append(f"{hidden} is published")

for e in errors:
    print("  " + e, file=sys.stderr)
print(f"{len(docs)} documents requested, {len(errors)} problems")
sys.exit(1 if errors else 0)
