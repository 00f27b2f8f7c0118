"""The harness's side: Prism (`prism mock SPEC --errors`) serving the API's own OpenAPI file,
the one place that knows where the API really is, and what Prism's answer says.
"""
import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qsl, urlsplit

_live = set()
_lock = threading.Lock()
stopping = threading.Event()  # set on Ctrl-C: no Prism starts or keeps running after it


class Prism:
    """`prism mock SPEC --errors -p PORT` on 127.0.0.1, in its own process group, stopped on
    exit, on failure and on Ctrl-C (`stop_all`)."""

    def __init__(self, prism, spec, port, log_path, wait=90):
        self.port, self.log_path = port, log_path
        self.log = open(log_path, "wb")
        self.proc = subprocess.Popen(
            [prism, "mock", spec, "--errors", "-h", "127.0.0.1", "-p", str(port)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        with _lock:
            _live.add(self)
        self.ready = not stopping.is_set() and self._wait(wait)

    def _wait(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not stopping.is_set():
            if self.proc.poll() is not None:
                return False
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2).close()
                return True
            except urllib.error.HTTPError:
                return True  # any HTTP answer: Prism is listening
            except (OSError, ValueError):
                time.sleep(0.2)
        return False

    def log_tail(self, lines=8):
        self.log.flush()
        with open(self.log_path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        return "\n".join(text.strip().splitlines()[-lines:])

    def stop(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass
        self.log.close()
        with _lock:
            _live.discard(self)


def stop_all():
    stopping.set()
    with _lock:
        running = list(_live)
    for p in running:
        p.stop()


def read_spec(node, yaml_module, spec):
    """What the harness needs of the spec: its server URLs (3.x `servers`, variables at their
    defaults; 2.0 schemes x host + basePath) and the path keys that hold a `#` (AWS writes
    `/tags/{arn}#tagKeys`) or a query (`/rest?method=x`), which Prism cannot route. Read with Node and the js-yaml Prism
    brings, Python having no YAML reader."""
    script = r"""
const fs = require('fs'), yaml = require(process.argv[1]);
const text = fs.readFileSync(process.argv[2], 'utf8');
let doc;
try { doc = JSON.parse(text); } catch (e) { doc = yaml.safeLoad(text, { json: true }); }
const urls = [];
for (const s of (doc && doc.servers) || []) {
  let url = String(s.url || '');
  for (const [k, v] of Object.entries(s.variables || {})) url = url.split('{' + k + '}').join(String((v || {}).default ?? ''));
  urls.push(url);
}
if (doc && doc.swagger) {
  const schemes = doc.schemes && doc.schemes.length ? doc.schemes : ['https'];
  for (const sc of schemes) urls.push(doc.host ? sc + '://' + doc.host + (doc.basePath || '') : (doc.basePath || ''));
}
const hashPaths = Object.keys((doc && doc.paths) || {}).filter(k => k.includes('#') || k.includes('?'));
const shared = (doc && ((doc.components || {}).parameters || doc.parameters)) || {};
const param = p => (p && typeof p.$ref === 'string') ? shared[p.$ref.split('/').pop()] : p;
const requiredQuery = new Set();
let unresolved = false;
for (const item of Object.values((doc && doc.paths) || {})) {
  const lists = [(item || {}).parameters || []];
  for (const op of Object.values(item || {})) if (op && Array.isArray(op.parameters)) lists.push(op.parameters);
  for (const list of lists) for (const p of list.map(param)) {
    if (!p) unresolved = true;
    else if (p.in === 'query' && p.required) requiredQuery.add(String(p.name));
  }
}
process.stdout.write(JSON.stringify({ servers: urls, hashPaths,
  requiredQuery: unresolved ? null : [...requiredQuery] }));
"""
    out = subprocess.run([node, "-e", script, yaml_module, spec], capture_output=True, timeout=120)
    if out.returncode != 0:
        return [], [], None
    read = json.loads(out.stdout)
    required = read["requiredQuery"]
    return ([u for u in read["servers"] if isinstance(u, str)], read["hashPaths"],
            None if required is None else set(required))


# Prism's answer to any body of an operation whose spec names no media type for it (a Swagger
# 2.0 body parameter with no `consumes`): it has nothing to validate the body against.
NO_BODY_MEDIA = "No supported content types, but request included a non-empty body"


# Prism validates an optional `deepObject` query parameter the request leaves out as if it
# were sent empty, so one whose schema requires a member fails a request that OpenAPI allows
# (`GET /files` with no `sort`: "Request query parameter sort must have required property
# 'by'"). Prism then says nothing about the call.
ABSENT_OBJECT = re.compile(r"query\.([^ ]+) Request query parameter ([^ ]+) must have required property ")


def absent_optional_object(message, sent, required):
    """Whether every violation in `message` is Prism's complaint about a query object the
    call did not send (no `name` nor `name[...]` among `sent`, the query's names) and that no
    operation of the spec requires (`required`, from `read_spec`; `None` where a parameter
    `$ref` could not be read, so that nothing is known)."""
    if required is None:
        return False
    parts = message.split("; ")
    for part in parts:
        m = ABSENT_OBJECT.match(part)
        if not m or m.group(1) != m.group(2):
            return False
        name = m.group(1)
        if name in required or any(s == name or s.startswith(name + "[") for s in sent):
            return False
    return bool(parts)


# Prism decodes a form body's values as strings, so an array sent as form style with explode
# (OpenAPI's default: `Permission=abc`, or `Permission=a&Permission=b`) fails an array schema
# ("Request body property Permission must be array"), however many values it has (Prism 5,
# tried with one and with two). Prism then says nothing about the call.
FORM_ARRAY = re.compile(r"body\.([^ ]+) Request body property ([^ ]+) must be array$")


def form_array(message, content_type, body):
    """Whether every violation in `message` is Prism's complaint that a key the call's form
    body sends is not an array."""
    if "application/x-www-form-urlencoded" not in content_type or body is None:
        return False
    pairs = [k for k, _ in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)]
    parts = message.split("; ")
    for part in parts:
        m = FORM_ARRAY.match(part)
        if not m or m.group(1) != m.group(2) or m.group(1) not in pairs:
            return False
    return bool(parts)


def unroutable(path, hash_paths):
    """Whether a path Prism could not route is one of the spec's path keys that hold a `#` or
    a query (`/rest?method=x`), which Prism matches literally, `#` or `?` and all: Prism says
    nothing about such a call, either way."""
    for key in hash_paths:
        template = re.escape(re.split(r"[#?]", key, maxsplit=1)[0])
        template = re.sub(r"\\\{[^}]*\\\}", "[^/]+", template)
        if re.fullmatch(template, path):
            return True
    return False


def site_origin(servers):
    """Where wellgen publishes the documents of an imported API: the origin of its first https
    server (a scheme-relative `//host` reads as https), else of its first server with a host."""
    with_host = [urlsplit("https:" + u if u.startswith("//") else u) for u in servers]
    with_host = [u for u in with_host if u.netloc]
    https = [u for u in with_host if u.scheme == "https"] or with_host
    return f"https://{https[0].netloc}" if https else None


def to_prism(url, servers, port):
    """The API's URL as Prism answers it, or None when the URL is not on the API's host.

    This is harness knowledge, not the agent's: the agent calls the API where the published
    documents say it is; only the harness knows that Prism stands in for that host on
    127.0.0.1, and that Prism 5 routes a request by the spec's paths alone, so the base path of
    the spec's server URL (`/forex-quotes` of `https://1forge.com/forex-quotes`) must be taken
    off (Prism answers `/forex-quotes/quotes` with NO_PATH_MATCHED_ERROR and `/quotes` with the
    operation)."""
    parts = urlsplit(url)
    hosts = {urlsplit("https:" + s if s.startswith("//") else s).netloc.lower() for s in servers} - {""}
    if hosts and parts.netloc.lower() not in hosts:
        return None
    path = parts.path or "/"
    bases = sorted({urlsplit(s).path.rstrip("/") for s in servers} - {""}, key=len, reverse=True)
    for base in bases:
        if path == base or path.startswith(base + "/"):
            path = path[len(base):] or "/"
            break
    return f"http://127.0.0.1:{port}{path}" + (f"?{parts.query}" if parts.query else "")


def send(call, url, timeout=30):
    """Status, headers (lower-case names) and body text of Prism's answer."""
    request = urllib.request.Request(url, data=call.body, method=call.method,
                                     headers={k: str(v) for k, v in call.header_lines().items()})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode("utf-8", "replace")


# Prism's own problem types that mean the request was not accepted.
ROUTER = {"NO_PATH_MATCHED_ERROR": "path-not-found", "NO_METHOD_MATCHED_ERROR": "method-not-allowed",
          "NO_SERVER_MATCHED_ERROR": "server-not-matched", "UNAUTHORIZED": "security",
          "INVALID_CONTENT_TYPE": "media-type", "NOT_ACCEPTABLE": "not-acceptable"}


def classify(status, headers, body):
    """(accepted, rejection classes, Prism's message).

    With `--errors`, Prism validates the request and puts every violation in the
    `sl-violations` header (location, code, message); a request with an error-severity
    violation is answered by the spec's own 401/415/422/400 response when it has one, else
    Prism's problem+json (UNAUTHORIZED 401, INVALID_CONTENT_TYPE 415, UNPROCESSABLE_ENTITY 422).
    A route or method Prism cannot match is a problem+json 404/405 with no violations. A valid
    request gets the spec's response, whatever its status; an invalid *response* (the spec's
    own example against its schema) is a 500 VIOLATIONS that says nothing about the request."""
    violations = []
    raw = headers.get("sl-violations")
    if raw:
        try:
            violations = json.loads(raw)
        except ValueError:
            violations = truncated(raw)
    errors = [v for v in violations if v.get("severity") == "Error" and (v.get("location") or [""])[0] == "request"]
    problem = None
    if "application/problem+json" in headers.get("content-type", ""):
        try:
            problem = json.loads(body)
        except ValueError:
            problem = None
    kind = str((problem or {}).get("type", "")).rsplit("#", 1)[-1]
    classes, messages = [], []
    if kind in ROUTER and not errors:
        classes.append(ROUTER[kind])
        messages.append(f"{(problem or {}).get('title')}: {(problem or {}).get('detail')}")
    for v in errors:
        classes.append(violation_class(v))
        messages.append(f"{'.'.join(map(str, v.get('location', [])[1:]))} {v.get('message')}".strip())
    if not classes and kind == "UNPROCESSABLE_ENTITY":
        for v in (problem or {}).get("validation") or []:
            classes.append(violation_class(v))
            messages.append(f"{'.'.join(map(str, v.get('location', [])))} {v.get('message')}")
    if not classes and status in (400, 401, 404, 405, 415, 422) and kind:
        classes.append(kind.lower())
        messages.append(str((problem or {}).get("detail")))
    order = sorted(range(len(classes)), key=lambda i: PRIORITY.get(classes[i], len(PRIORITY)))
    return not classes, [classes[i] for i in order], "; ".join(messages[i] for i in order)[:600]


# The first cause of a rejected call: where it went, then who is calling, then what it sent.
PRIORITY = {"path-not-found": 0, "method-not-allowed": 1, "security": 2, "media-type": 3,
            "missing-body": 4}


def truncated(raw):
    """The violations a cut `sl-violations` header (`Too many violations! [...`) still holds
    whole."""
    found = []
    for m in re.finditer(r'\{"location":(\[[^\]]*\]),"severity":"(\w+)","code":("[^"]*"|\d+),"message":"((?:[^"\\]|\\.)*)"\}', raw):
        try:
            found.append({"location": json.loads(m.group(1)), "severity": m.group(2),
                          "code": json.loads(m.group(3)), "message": json.loads('"' + m.group(4) + '"')})
        except ValueError:
            continue
    return found


def violation_class(v):
    """`security`, `media-type`, `missing-<place>`, `missing-body`, `<place>-<keyword>`."""
    code = str(v.get("code"))
    location = [str(x) for x in (v.get("location") or [])]
    if location and location[0] == "request":
        location = location[1:]
    if code == "401":
        return "security"
    if code == "415":
        return "media-type"
    place = location[0] if location else "request"
    if place not in ("path", "query", "header", "cookie", "body"):
        place = "request"
    if code == "required":
        if "Body parameter is required" in str(v.get("message")):
            return "missing-body"
        return "missing-body-field" if place == "body" else f"missing-{place}"
    return f"{place}-{code}"
