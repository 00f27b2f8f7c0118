"""The MCP agent: reads only the built site's `/.well-known/mcp/tools.json` and calls each tool
over HTTP as its `_meta["dev.wellgen/http"]` binding says (the contract in docs/roundtrip.md),
with arguments built from the tool's `inputSchema`: every required property, no optional one.
"""
import json
import os
import re

from auth import apply_requirement
from request import Call, path_segment, set_body
from values import value_for

BINDING = "dev.wellgen/http"


def calls(folder):
    path = os.path.join(folder, ".well-known", "mcp", "tools.json")
    try:
        with open(path, "rb") as f:
            tools = json.load(f).get("tools") or []
    except (OSError, ValueError):
        return []
    return [call_for(tool) for tool in tools if isinstance(tool, dict)]


def call_for(tool):
    name = tool.get("name", "?")
    binding = (tool.get("_meta") or {}).get(BINDING)
    if not isinstance(binding, dict) or not binding.get("url"):
        call = Call("mcp", name, "GET", "")
        call.refused = ("no-binding", f"the tool has no _meta[{BINDING!r}]")
        return call
    call = Call("mcp", name, binding.get("method") or "GET", binding["url"])
    schema = tool.get("inputSchema") or {}
    props = schema.get("properties") or {}
    wiring = binding.get("arguments") or {}
    url, fields, whole, has_whole = binding["url"], {}, None, False
    for arg in schema.get("required") or []:
        where = wiring.get(arg)
        if not isinstance(where, dict):
            call.refused = ("unbound-argument", f"required argument `{arg}` has no binding")
            return call
        value = value_for(props.get(arg) or {}, root=schema)
        place, wire = where.get("in"), where.get("name", arg)
        if place == "path":
            url = url.replace("{" + wire + "}", path_segment(value))
        elif place == "query":
            call.add_query(wire, value)
        elif place == "header":
            call.headers[wire] = value if isinstance(value, str) else json.dumps(value)
        elif place == "cookie":
            call.cookies[wire] = value
        elif place == "body" and where.get("whole"):
            whole, has_whole = value, True
        elif place == "body":
            fields[wire] = value
        else:
            call.refused = ("unbound-argument", f"argument `{arg}` goes `in: {place}`")
            return call
    # A path placeholder is filled even when its argument is not listed as required.
    for arg, where in wiring.items():
        if isinstance(where, dict) and where.get("in") == "path" and "{" + where.get("name", arg) + "}" in url:
            url = url.replace("{" + where.get("name", arg) + "}", path_segment(value_for(props.get(arg) or {}, root=schema)))
    left = re.findall(r"\{([^}]+)\}", url)
    if left:
        call.refused = ("unfilled-path", f"no argument fills {{{left[0]}}}")
        return call
    call.url = url
    if binding.get("contentType") or fields or has_whole:
        set_body(call, binding.get("contentType"), fields=fields, whole=whole, has_whole=has_whole)
    schemes = binding.get("security") or []
    if schemes and not any(apply_requirement(call, s) for s in schemes):
        call.note = "no security scheme the agent can satisfy"
    return call
