"""The agent round trip: builds each OpenAPI file with wellgen, mocks the API with Prism from
the same file, and has three agents call every capability and tool from the built documents
alone (ai_agent.py, mcp_agent.py, skills_agent.py); prints per spec and overall how many calls Prism accepted,
and why it rejected the rest. Run by scripts/check-roundtrip, which says how to use it.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ai_agent  # noqa: E402
import mcp_agent  # noqa: E402
import skills_agent  # noqa: E402
import prism as harness  # noqa: E402

AGENTS = ("ai", "mcp", "skills")


def main():
    args = arguments()
    specs = select(args)
    if not specs:
        sys.exit("check-roundtrip: no OpenAPI file selected")
    work = tempfile.mkdtemp(prefix="roundtrip-")
    start = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    pool = ThreadPoolExecutor(max_workers=args.jobs)
    try:
        results = list(pool.map(lambda s: run_spec(s, args, work), specs))
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        harness.stop_all()
        time.sleep(0.5)  # a worker may have been starting one Prism more
        harness.stop_all()
        print("check-roundtrip: interrupted; every Prism stopped", file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
        os._exit(130)
    finally:
        harness.stop_all()
        pool.shutdown(wait=False)
        shutil.rmtree(work, ignore_errors=True)
    summary = summarise(results, time.monotonic() - start)
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        report(results, summary, args.verbose)
    failed = []
    for agent, floor in (("ai", args.min_ai), ("mcp", args.min_mcp), ("skills", args.min_skills)):
        pct = summary["agents"][agent]["percent"]
        if floor is not None and pct < floor:
            failed.append(f"{agent} agent {pct:.1f}% is below the floor {floor}%")
    if args.every_spec_runs and summary["not_run"]:
        failed.append(f"specs not run: {', '.join(summary['not_run'])}")
    for line in failed:
        print(f"FAIL  {line}", file=sys.stderr)
    sys.exit(1 if failed else 0)


def arguments():
    p = argparse.ArgumentParser(prog="check-roundtrip")
    p.add_argument("--corpus", required=True)
    p.add_argument("--wellgen", required=True)
    p.add_argument("--prism", required=True)
    p.add_argument("--node", default="node")
    p.add_argument("--yaml-module", required=True, help="js-yaml's folder (Prism's dependency)")
    p.add_argument("--ci", default="", help="the CI subset: paths relative to the corpus, comma-separated")
    p.add_argument("--all", action="store_true", help="every spec of <corpus>/apis-guru")
    p.add_argument("--big", action="store_true", help="with --all: <corpus>/big too")
    p.add_argument("--spec", action="append", default=[], help="one OpenAPI file (repeatable)")
    p.add_argument("--json", action="store_true", help="the summary as JSON on stdout")
    p.add_argument("--verbose", "-v", action="store_true", help="every rejected call with Prism's message")
    p.add_argument("--min-ai", type=float, help="fail below this acceptance % of the ai agent")
    p.add_argument("--min-mcp", type=float, help="fail below this acceptance % of the MCP agent")
    p.add_argument("--min-skills", type=float, help="fail below this acceptance % of the Agent Skills agent")
    p.add_argument("--every-spec-runs", action="store_true",
                   help="fail when a selected spec is not run (refused by wellgen, Prism not starting)")
    p.add_argument("--jobs", "-j", type=int, default=2, help="specs at a time (one Prism each)")
    p.add_argument("--startup", type=float, default=90, help="seconds Prism may take to start")
    return p.parse_args()


def select(args):
    if args.spec:
        return [os.path.abspath(s) for s in args.spec]
    if args.all:
        found = []
        roots = [os.path.join(args.corpus, "apis-guru")] + ([os.path.join(args.corpus, "big")] if args.big else [])
        for root in roots:
            for folder, _, files in os.walk(root):
                found += [os.path.join(folder, f) for f in files if f.endswith((".yaml", ".yml", ".json"))]
        return sorted(found)
    return [os.path.join(args.corpus, s) for s in args.ci.split(",") if s]


def label(spec):
    parts = spec.replace(os.sep, "/").split("/")
    if "APIs" in parts:
        return "/".join(parts[parts.index("APIs") + 1:-1])
    return parts[-1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_spec(spec, args, work):
    began = time.monotonic()
    result = run_one(spec, args, work)
    result["seconds"] = round(time.monotonic() - began, 1)
    return result


def run_one(spec, args, work):
    name = label(spec)
    result = {"spec": name, "path": spec, "status": "ok", "reason": None, "calls": []}
    out = os.path.join(work, f"{abs(hash(spec))}")
    build = subprocess.run([args.wellgen, "build", spec, "-o", out, "--quiet"], capture_output=True)
    if build.returncode != 0:
        text = build.stderr.decode("utf-8", "replace")
        code = next((w.split("[", 1)[1].split("]", 1)[0] for w in text.split() if w.startswith("error[")), None)
        first = next((line for line in text.splitlines() if "error" in line), text.strip()[:200])
        result.update(status="refused", reason=code or f"exit {build.returncode}", detail=first[:300])
        return result
    servers, hash_paths, required_query = harness.read_spec(args.node, args.yaml_module, spec)
    origin = harness.site_origin(servers)
    if origin is None:
        result.update(status="no-host", reason="the spec names no host the harness can map")
        return result
    calls = ai_agent.calls(out, origin + "/.well-known/ai") + mcp_agent.calls(out) + skills_agent.calls(out, origin)
    port = free_port()
    server = harness.Prism(args.prism, spec, port, os.path.join(work, f"{abs(hash(spec))}.log"), args.startup)
    try:
        if not server.ready:
            result.update(status="prism-failed", reason="Prism did not start", detail=server.log_tail())
            return result
        for call in calls:
            if harness.stopping.is_set():
                break
            result["calls"].append(attempt(call, servers, (hash_paths, required_query), port))
    finally:
        server.stop()
        shutil.rmtree(out, ignore_errors=True)
    return result


def attempt(call, servers, spec_facts, port):
    """One call sent to Prism: `outcome` is accepted, rejected, or unchecked (Prism cannot
    route the spec's path at all, or fails the call for what Prism itself gets wrong, so it
    says nothing about the call). `spec_facts`: the spec's path keys Prism cannot route and
    the query parameters some operation requires (`read_spec`)."""
    hash_paths, required_query = spec_facts
    record = {"agent": call.agent, "name": call.name, "request": None, "status": None,
              "outcome": "rejected", "classes": [], "message": "", "note": call.note}
    if call.refused:
        record["classes"], record["message"] = [call.refused[0]], call.refused[1]
        return record
    record["request"] = call.describe()
    url = harness.to_prism(call.full_url(), servers, port)
    if url is None:
        record["classes"], record["message"] = ["wrong-host"], f"{call.url} is not on the API's host"
        return record
    try:
        status, headers, body = harness.send(call, url)
    except OSError as e:
        record["classes"], record["message"] = ["no-answer"], str(e)
        return record
    record["status"] = status
    accepted, record["classes"], record["message"] = harness.classify(status, headers, body)
    if accepted:
        record["outcome"] = "accepted"
    elif record["classes"][0] in ("path-not-found", "method-not-allowed") and \
            harness.unroutable(urlsplit(url).path, hash_paths):
        record["outcome"], record["classes"] = "unchecked", ["prism-cannot-route-path-key"]
    # `message` is cut at 600 characters: an exemption needs every violation in it whole.
    elif whole_message(record) and all(c == "missing-query" for c in record["classes"]) and \
            harness.absent_optional_object(record["message"], [n for n, _ in call.query], required_query):
        record["outcome"], record["classes"] = "unchecked", ["prism-absent-optional-object"]
    elif whole_message(record) and all(c == "body-type" for c in record["classes"]) and \
            harness.form_array(record["message"], call.headers.get("Content-Type", ""), call.body):
        record["outcome"], record["classes"] = "unchecked", ["prism-form-array"]
    elif harness.NO_BODY_MEDIA in record["message"]:
        record["outcome"], record["classes"] = "unchecked", ["prism-no-body-media-type"]
    elif "xml" in call.headers.get("Content-Type", "") and record["classes"][0].startswith("body-"):
        # Prism reads an XML body as a string, so no XML body ever meets an object schema.
        record["outcome"], record["classes"] = "unchecked", ["prism-cannot-read-xml-body"]
    return record


def whole_message(record):
    """Whether the record's message holds every one of its violations, one per class."""
    return bool(record["classes"]) and len(record["message"].split("; ")) == len(record["classes"])


def tally(calls):
    """Accepted over checked calls (accepted + rejected); rejections by their first class."""
    accepted = sum(c["outcome"] == "accepted" for c in calls)
    rejected = [c for c in calls if c["outcome"] == "rejected"]
    checked = accepted + len(rejected)
    return {"calls": len(calls), "checked": checked, "accepted": accepted,
            "percent": round(100.0 * accepted / checked, 1) if checked else 0.0,
            "unchecked": len(calls) - checked,
            "rejections": dict(Counter(c["classes"][0] for c in rejected).most_common()),
            # every cause a rejected call has, not only its first: a missing credential hides
            # the media type Prism would complain about next
            "causes": dict(Counter(k for c in rejected for k in dict.fromkeys(c["classes"])).most_common())}


def summarise(results, seconds):
    agents = {agent: tally([c for r in results for c in r["calls"] if c["agent"] == agent])
              for agent in AGENTS}
    specs = []
    for r in results:
        row = {"spec": r["spec"], "status": r["status"], "seconds": r.get("seconds")}
        if r["status"] != "ok":
            row["reason"] = r["reason"]
        for agent in AGENTS:
            row[agent] = tally([c for c in r["calls"] if c["agent"] == agent])
        specs.append(row)
    return {"specs_run": sum(r["status"] == "ok" for r in results), "specs_selected": len(results),
            "not_run": {r["spec"]: r["reason"] for r in results if r["status"] != "ok"},
            "seconds": round(seconds, 1), "agents": agents, "per_spec": specs}


def pct(n, d):
    return f"{100.0 * n / d:5.1f}%" if d else "   - "


def report(results, summary, verbose):
    for r, row in zip(results, summary["per_spec"]):
        if r["status"] != "ok":
            print(f"{'SKIP' if r['status'] == 'refused' else 'FAIL'}  {r['spec']}: {r['status']} ({r['reason']}) {r.get('detail', '')}".rstrip())
            continue
        cells = []
        for agent in AGENTS:
            a = row[agent]
            top = ", ".join(f"{k} {v}" for k, v in sorted(a["rejections"].items(), key=lambda kv: -kv[1])[:3])
            unchecked = f" +{a['unchecked']} unchecked" if a["unchecked"] else ""
            cells.append(f"{agent} {a['accepted']:>3}/{a['checked']:<3} {pct(a['accepted'], a['checked'])}{unchecked}"
                         + (f" [{top}]" if top else ""))
        print(f"ok    {r['spec']} ({r['seconds']} s): " + "  ".join(cells))
        if verbose:
            for c in r["calls"]:
                if c["outcome"] != "accepted":
                    print(f"        {c['agent']} {c['name']}: {','.join(c['classes'])} (status {c['status']}): {c['message']}")
                    if c["request"]:
                        print(f"          {c['request']}")
                    if c["note"]:
                        print(f"          note: {c['note']}")
    print()
    print(f"{summary['specs_run']} of {summary['specs_selected']} specs run in {summary['seconds']} s"
          + (f"; not run: {len(summary['not_run'])} ({', '.join(f'{k}: {v}' for k, v in summary['not_run'].items())})"
             if summary["not_run"] else ""))
    for agent in AGENTS:
        a = summary["agents"][agent]
        print(f"{agent:>3} agent: {a['accepted']}/{a['checked']} calls accepted ({a['percent']}%)"
              + (f"; {a['unchecked']} more unchecked (Prism cannot check them: docs/roundtrip.md)" if a["unchecked"] else ""))
        if a["rejections"]:
            print(f"      {'first':>5} {'any':>5}  cause")
        for cls in a["causes"]:
            print(f"      {a['rejections'].get(cls, 0):>5} {a['causes'][cls]:>5}  {cls}")


if __name__ == "__main__":
    main()
