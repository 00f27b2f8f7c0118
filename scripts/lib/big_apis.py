#!/usr/bin/env python3
"""Builds big real OpenAPI descriptions with `wellgen build SPEC -o OUT --json` and checks what
issue 26 asks of them ("Right-sized documents for big APIs"), one `ok`/`FAIL` line per check and
spec, then a table of the figures:

  a. every /.well-known/ai document (the file, and the parts a split index links as capabilities)
     is at most 64 KB (aiendpoint §4.5) and valid against the aiendpoint JSON Schema, formats
     asserted;
  b. every operation of the source (method + path) is a capability of one of them, with every
     required path and query parameter;
  c. the build's token ratio (`ratio.o200k_base` of the --json summary: the source's tokens over
     all the /.well-known/ai documents' tokens) is at least 13 (the documents state every place,
     format, shape and allowed value a call needs, nested fields' and array items' allowed
     values too: docs/targets/ai.md; Stripe, whose nested fields hold many enums, is at 13.6);
  d. no file the build writes is larger than the source.

Used by scripts/check-big-apis, which makes the venv (jsonschema with its format checkers, PyYAML).
Usage: big_apis.py WELLGEN SCHEMA WORK NAME=SPEC...   (exit 1 on any FAIL)
"""
import json, os, re, subprocess, sys, time
from urllib.parse import parse_qsl, urlsplit

import jsonschema
import yaml

MAX_DOC = 65536
MIN_RATIO = 13
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

wellgen, schema_path, work, *specs = sys.argv[1:]
failures = 0


def report(ok, name, check, detail):
    global failures
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'}  {name}: {check}: {detail}")


def validator():
    schema = json.load(open(schema_path))
    cls = jsonschema.validators.validator_for(schema)
    checker = cls.FORMAT_CHECKER
    # Without rfc3987 or rfc3986-validator installed, jsonschema passes every "uri" silently.
    if checker.conforms("not a uri", "uri"):
        sys.exit("big_apis.py: jsonschema cannot check the uri format (install jsonschema[format-nongpl])")
    return cls(schema, format_checker=checker)


def load_source(path):
    with open(path, "rb") as f:
        if path.endswith((".yaml", ".yml")):
            return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        return json.load(f)


def deref(doc, value):
    """Follows local `$ref`s (`#/components/parameters/x`, 2.0 `#/parameters/x`) to the value."""
    seen = set()
    while isinstance(value, dict) and "$ref" in value:
        ref = value["$ref"]
        if not ref.startswith("#/") or ref in seen:
            raise ValueError(f"cannot follow $ref {ref}")
        seen.add(ref)
        value = doc
        for part in ref[2:].split("/"):
            value = value[part.replace("~1", "/").replace("~0", "~")]
    return value


def placeholders(path):
    return re.findall(r"\{([^}]*)\}", path)


def shape(path):
    """The path as a caller sees it: query string and fragment gone, placeholders unnamed."""
    return re.sub(r"\{[^}]*\}", "{}", re.split(r"[?#]", path, maxsplit=1)[0])


def plain(name):
    # wellgen turns characters outside [A-Za-z0-9_-] in parameter names into `_`.
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def base_paths(doc):
    """The paths of the source's servers (3.x) or its basePath (2.0), e.g. `/v1`, with each
    server variable at its default (bunq's `https://public-api.sandbox.bunq.com/{basePath}`)."""
    urls = []
    for server in doc.get("servers") or []:
        url = server.get("url", "")
        for name, var in (server.get("variables") or {}).items():
            url = url.replace("{%s}" % name, str((var or {}).get("default", "")))
        urls.append(url)
    urls.append(doc.get("basePath") or "")
    return {p for p in (urlsplit(u).path.rstrip("/") for u in urls) if p}


def source_operations(doc):
    """(METHOD, path key, required path names, required query names) of every operation."""
    ops = []
    for key, item in (doc.get("paths") or {}).items():
        item = deref(doc, item)
        shared = [deref(doc, p) for p in item.get("parameters", [])]
        for method in METHODS:
            if method not in item:
                continue
            op = deref(doc, item[method])
            params = {(p.get("name"), p.get("in")): p for p in shared}
            # An operation's parameter overrides the path item's of the same name and place.
            params.update({(p.get("name"), p.get("in")): p for p in map(lambda p: deref(doc, p), op.get("parameters", []))})
            query = {plain(n) for (n, where), p in params.items() if where == "query" and p.get("required")}
            # A query string in the path key (OpenAI's `/responses?beta=true`) is a required
            # constant query parameter of the capability.
            if "?" in key:
                query |= {plain(n) for n, _ in parse_qsl(key.split("?", 1)[1].split("#")[0], keep_blank_values=True)}
            ops.append((method.upper(), key, [plain(n) for n in placeholders(key.split("?")[0])], query))
    return ops


def ai_documents(out):
    """Every /.well-known/ai document: the file, and the parts its capabilities link (a split
    index links each part as a GET of the part's URL). Returns {site path: document} and the
    capabilities that are operations."""
    docs, caps, todo = {}, [], ["/.well-known/ai"]
    while todo:
        site_path = todo.pop(0)
        if site_path in docs:
            continue
        docs[site_path] = json.load(open(os.path.join(out, site_path.lstrip("/")), "rb"))
        for cap in docs[site_path].get("capabilities", []):
            target = urlsplit(cap.get("endpoint", "")).path
            file = os.path.join(out, target.lstrip("/"))
            if cap.get("method") == "GET" and target.startswith("/.well-known/") and os.path.isfile(file):
                todo.append(target)
            else:
                caps.append(cap)
    return docs, caps


def check(name, spec, schema):
    out = os.path.join(work, name)
    start = time.perf_counter()
    run = subprocess.run([wellgen, "build", spec, "-o", out, "--json"], capture_output=True)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        report(False, name, "build", f"wellgen build exits {run.returncode}:\n{run.stderr.decode()[-2000:]}")
        return None
    summary = json.loads(run.stdout)
    source_bytes = os.path.getsize(spec)

    # a. Size and schema of every /.well-known/ai document.
    docs, caps = ai_documents(out)
    sizes = {p: os.path.getsize(os.path.join(out, p.lstrip("/"))) for p in docs}
    over = [f"{p} {b:,} bytes" for p, b in sizes.items() if b > MAX_DOC]
    report(not over, name, "/.well-known/ai documents <= 64 KB",
           "; ".join(over) if over else f"{len(docs)} documents, largest {max(sizes.values()):,} bytes")
    invalid = []
    for p, d in docs.items():
        errors = sorted(schema.iter_errors(d), key=lambda e: list(e.absolute_path))
        invalid += [f"{p}#/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:3]]
    report(not invalid, name, "aiendpoint schema", "; ".join(invalid[:5]) if invalid else f"{len(docs)} documents valid")
    # Parts on disk that nothing links would be capabilities no agent finds.
    parts_dir = os.path.join(out, ".well-known", "ai-services")
    on_disk = {f"/.well-known/ai-services/{f}" for f in os.listdir(parts_dir)} if os.path.isdir(parts_dir) else set()
    unlinked = sorted(on_disk - set(docs) - {"/.well-known/ai-services/index.json"})
    report(not unlinked, name, "every part linked from /.well-known/ai",
           ", ".join(unlinked) if unlinked else f"{len(docs) - 1} parts linked")

    # b. Every operation, with its required path and query parameters.
    source = load_source(spec)
    operations = source_operations(source)
    bases = base_paths(source)
    by_shape = {}
    for cap in caps:
        path = urlsplit(cap["endpoint"]).path
        # An endpoint is the path on the site: the server's base path (OpenAI's /v1) comes first.
        shapes = {shape(path)} | {shape(path[len(b):]) for b in bases if path.startswith(b + "/")}
        for s in shapes:
            by_shape.setdefault((cap["method"], s), []).append(cap)
    used, missing, lacking, renamed = set(), [], [], 0
    # Most required parameters first: OpenAI's `POST /responses?beta=true` must take the
    # capability that has `beta` before `POST /responses`, which fits either, takes one.
    for method, key, path_names, query in sorted(operations, key=lambda o: -len(o[2]) - len(o[3])):
        candidates = [c for c in by_shape.get((method, shape(key)), []) if id(c) not in used]
        if not candidates:
            missing.append(f"{method} {key}")
            continue
        best = None
        for cap in candidates:
            params = cap.get("params", {})
            cap_names = placeholders(urlsplit(cap["endpoint"]).path)
            gaps, moved = [], 0
            for i, n in enumerate(path_names):
                # Paths that differ only in parameter names are one path to a caller: wellgen
                # gives the later ones the first one's names (GitHub's
                # `/orgs/{org}/attestations/{subject_digest}` and `…/{attestation_id}`), so a
                # required path parameter may be on the capability under the name of the
                # placeholder at its position.
                if n in params:
                    continue
                if i < len(cap_names) and cap_names[i] in params:
                    moved += 1
                else:
                    gaps.append(f"path {n}")
            # A query parameter named like a placeholder is the path parameter to a caller
            # (wellgen leaves it out of the query; the path one carries it).
            gaps += [f"query {n}" for n in sorted(query) if n not in params and n not in path_names]
            if best is None or len(gaps) < len(best[1]):
                best = (cap, gaps, moved)
            if not gaps:
                break
        cap, gaps, moved = best
        used.add(id(cap))
        renamed += moved
        if gaps:
            lacking.append(f"{method} {key} ({cap['id']}): no {', '.join(gaps)}")
    report(not missing, name, "every operation a capability",
           f"{len(missing)} of {len(operations)} missing: {'; '.join(missing[:5])}" if missing
           else f"{len(operations)} operations, {len(caps)} capabilities")
    report(not lacking, name, "every required path and query parameter",
           f"{len(lacking)} operations lack some: {'; '.join(lacking[:5])}" if lacking
           else f"all present ({renamed} path parameters under the name of a merged path)")

    # c. The token ratio, and that it counts every /.well-known/ai document.
    ratio = summary["ratio"]["o200k_base"]
    report(ratio >= MIN_RATIO, name, f"token ratio >= {MIN_RATIO} (o200k_base)", f"{ratio}x")
    tokens = {d["path"]: d["o200k_base"] for d in summary["documents"]}
    if all(p in tokens for p in docs):
        mine = summary["openapi"]["o200k_base"] / sum(tokens[p] for p in docs)
        report(abs(mine - ratio) < 0.01 * ratio, name, "the ratio counts every /.well-known/ai document",
               f"source {summary['openapi']['o200k_base']:,} tokens / {sum(tokens[p] for p in docs):,} = {mine:.2f}x")
    else:
        report(False, name, "the ratio counts every /.well-known/ai document",
               "not in the summary: " + ", ".join(p for p in docs if p not in tokens))

    # d. No generated file larger than the source.
    largest, largest_path = 0, ""
    for dirpath, _, files in os.walk(out):
        for f in files:
            size = os.path.getsize(os.path.join(dirpath, f))
            if size > largest:
                largest, largest_path = size, os.path.relpath(os.path.join(dirpath, f), out)
    report(largest <= source_bytes, name, "no file larger than the source",
           f"largest {largest_path} {largest:,} bytes, source {source_bytes:,} bytes")

    # e. Every `$ref` of a JSON document resolves inside it (an MCP tool's inside its own
    # schema): a reader that resolves references fails on one that does not.
    refs, dangling = 0, []
    for dirpath, _, files in os.walk(out):
        for f in files:
            if not f.endswith(".json"):
                continue
            path = os.path.join(dirpath, f)
            with open(path) as fh:
                doc = json.load(fh)
            tools = doc.get("tools") if isinstance(doc, dict) else None
            scopes = [t.get(k) for t in tools for k in ("inputSchema", "outputSchema") if t.get(k)] \
                if isinstance(tools, list) else [doc]
            for scope in scopes:
                for ref in references(scope):
                    refs += 1
                    if not (ref.startswith("#") and pointer(scope, ref[1:])):
                        dangling.append(f"{os.path.relpath(path, out)}: {ref}")
    report(not dangling, name, "every $ref resolves in its document",
           f"{len(dangling)} of {refs}: {'; '.join(dangling[:3])}" if dangling else f"{refs:,} references")
    return (name, ratio, max(sizes.values()), len(docs) - 1, len(operations), wall)


def references(value):
    """Every `$ref` string in `value`."""
    if isinstance(value, dict):
        if isinstance(value.get("$ref"), str):
            yield value["$ref"]
        for v in value.values():
            yield from references(v)
    elif isinstance(value, list):
        for v in value:
            yield from references(v)


def pointer(doc, path):
    """Whether the JSON pointer `path` names a value of `doc`."""
    for part in path.split("/")[1:] if path else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and part in doc:
            doc = doc[part]
        elif isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
            doc = doc[int(part)]
        else:
            return False
    return True


def main():
    schema = validator()
    rows = [row for s in specs if (row := check(*s.split("=", 1), schema))]
    if rows:
        print(f"\n{'spec':<8} {'ratio':>7} {'largest ai doc':>15} {'parts':>6} {'operations':>11} {'build':>8}")
        for name, ratio, largest, parts, ops, wall in rows:
            print(f"{name:<8} {ratio:>6.2f}x {largest:>9,} bytes {parts:>6} {ops:>11} {wall:>7.2f}s")
    sys.exit(1 if failures else 0)


main()
