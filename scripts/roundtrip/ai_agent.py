"""The ai agent: reads only the built site's `/.well-known/ai` (the parts a split index links,
and the Security Scheme Object `auth.docs` points at on the same site) and makes one call per
capability, following docs/targets/ai.md: every required parameter, no optional one.

The agent reads the site through `Site`, which turns the site's URLs into files of the built
folder; it knows the URL it fetched `/.well-known/ai` from and nothing else.
"""
import json
import os
import re
from urllib.parse import unquote, urljoin, urlsplit

import notation
from auth import apply_scheme
from request import API_KEY, BEARER, Call, path_segment, set_body
from values import value_for

BODY_METHODS = ("POST", "PUT", "PATCH")
MEDIA_SUFFIX = re.compile(r"Request body: ([^\s]+/[^\s]+?)\.\s*$")


class Site:
    """The published site: a URL of its origin is read from the built folder."""

    def __init__(self, folder, origin):
        self.folder, self.origin = folder, origin

    def file(self, url):
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            return None
        path = os.path.normpath(os.path.join(self.folder, unquote(parts.path).lstrip("/")))
        inside = path.startswith(os.path.normpath(self.folder) + os.sep)
        return path if inside and os.path.isfile(path) else None

    def json(self, url):
        path = self.file(url)
        if path is None:
            return None
        try:
            with open(path, "rb") as f:
                return json.load(f)
        except ValueError:
            return None


def calls(folder, doc_url):
    parts = urlsplit(doc_url)
    site = Site(folder, f"{parts.scheme}://{parts.netloc}")
    out, seen, todo = [], set(), [doc_url]
    while todo:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        doc = site.json(url)
        if not isinstance(doc, dict):
            continue
        for cap in doc.get("capabilities") or []:
            target = urljoin(url, cap.get("endpoint", ""))
            linked = site.json(target) if cap.get("method") == "GET" and not cap.get("params") else None
            if isinstance(linked, dict) and "aiendpoint" in linked:
                todo.append(target)  # a part of a split index
            else:
                out.append(call_for(cap, url, doc.get("auth"), site))
    return out


def call_for(cap, doc_url, auth, site):
    method = (cap.get("method") or "GET").upper()
    endpoint = urljoin(doc_url, cap.get("endpoint", ""))
    call = Call("ai", cap.get("id", "?"), method, endpoint)
    params, unreadable = {}, []
    for name, text in (cap.get("params") or {}).items():
        try:
            params[name] = notation.parse(text)
        except ValueError as e:
            if text.split(",")[1:2] != [" optional"]:
                call.refused = ("unreadable-param", f"{name}: {e}")
                return call
            unreadable.append(name)  # optional, left out; it still says the call has a body
    # Path parameters: `{name}`, or `:name` when that is a parameter's name.
    path_names = set(re.findall(r"\{([^}]+)\}", endpoint))
    path_names |= {n for n in re.findall(r":([A-Za-z_][A-Za-z0-9_]*)", urlsplit(endpoint).path) if n in params}
    url = endpoint
    for name in path_names:
        p = params.get(name)
        if p is None:
            call.refused = ("unfilled-path", f"`{name}` in the endpoint is no parameter")
            return call
        v = path_segment(value_for(p.schema))
        url = url.replace("{" + name + "}", v)
        url = re.sub(r":" + re.escape(name) + r"(?=/|$)", v, url)
    call.url = url

    media = MEDIA_SUFFIX.search(cap.get("description") or "")
    media = media.group(1) if media else None
    fields, whole, has_whole = {}, None, False
    body_used = media is not None or (method in BODY_METHODS and bool(unreadable))
    for name, p in params.items():
        if name in path_names:
            continue
        place = p.place or ("body" if method in BODY_METHODS else "query")
        if place == "body":
            body_used = True
        if not p.required:
            continue
        value = value_for(p.schema)
        name = p.wire or name
        if p.whole_body:
            whole, has_whole, body_used = value, True, True
        elif place == "query":
            call.add_query(name, value)
        elif place == "header":
            call.headers[name] = value if isinstance(value, str) else json.dumps(value)
        elif place == "cookie":
            call.cookies[name] = value
        elif place == "body":
            fields[name] = value
    if body_used:
        set_body(call, media, fields=fields, whole=whole, has_whole=has_whole)
    authenticate(call, auth, doc_url, site)
    return call


def authenticate(call, auth, doc_url, site):
    """The auth table of docs/targets/ai.md."""
    if not isinstance(auth, dict):
        return
    kind = auth.get("type")
    if kind == "apikey" and auth.get("header"):
        call.headers[auth["header"]] = API_KEY
    elif kind in ("bearer", "oauth2"):
        call.headers["Authorization"] = f"Bearer {BEARER}"
    elif kind == "apikey":
        target = value_at(auth.get("docs"), doc_url, site)
        schemes = schemes_of(target, auth.get("docs"), doc_url, site)
        if not auth.get("docs"):
            call.note = "auth is apikey with neither `header` nor `docs`: sent without credentials"
        elif not schemes:
            call.note = (f"auth.docs {auth['docs']} is no Security Scheme or Requirement Object "
                         "on the site: sent without credentials")
        else:
            for scheme in schemes:
                if not apply_scheme(call, scheme):
                    call.note = f"cannot satisfy the scheme {scheme}"


def schemes_of(target, docs, doc_url, site):
    """The Security Scheme Objects `auth.docs` stands for: the scheme it points at, or every
    scheme a Security Requirement Object it points at names (from the same document's
    `components.securitySchemes`)."""
    if not isinstance(target, dict):
        return []
    if "type" in target:
        return [target]
    address = urljoin(doc_url, docs).partition("#")[0]
    found = []
    for name in target:
        scheme = value_at(f"{address}#/components/securitySchemes/{name.replace('~', '~0').replace('/', '~1')}",
                          doc_url, site)
        if not isinstance(scheme, dict):
            return []
        found.append(scheme)
    return found


def value_at(docs, doc_url, site):
    """The JSON value `docs` points at (`/openapi.json#/components/securitySchemes/x`,
    `/openapi.json#/security/0`) when it is a document of the same site."""
    if not isinstance(docs, str):
        return None
    target = urljoin(doc_url, docs)
    address, _, pointer = target.partition("#")
    value = site.json(address)
    if value is None or not pointer.startswith("/"):
        return None
    for token in pointer[1:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return None
    return value
