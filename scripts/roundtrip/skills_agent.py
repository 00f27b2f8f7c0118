"""The Agent Skills agent: reads only the built site's `/.well-known/agent-skills/index.json` and
the SKILL.md files it lists, and sends each capability's example call (its ```http block) as
written, with its fixed credentials in place of the `<...>` placeholders the Authentication
section describes. A call that still holds a placeholder (a value the example could not give)
is refused before sending: the agent would have to ask the user for it.
"""
import re
from urllib.parse import parse_qsl, unquote, urljoin, urlsplit, urlunsplit

from ai_agent import Site
from request import API_KEY, BEARER, Call, basic_credentials

INDEX = "/.well-known/agent-skills/index.json"
CAPABILITY = re.compile(r"^\*\*`([^`]+)`\*\*:")
FENCE = "```"
# What the examples write where the credential goes (docs/targets/agent-skills.md): `<API key>`,
# or `<API key: X-Client-Id>` for a key sent with the scheme.
CREDENTIALS = (
    (re.compile(r"Bearer <token>"), f"Bearer {BEARER}"),
    (re.compile(r"Basic <base64 of user:password>"), basic_credentials()),
    (re.compile(r"<API key(?:: [^<>]*)?>"), API_KEY),
)
PLACEHOLDER = re.compile(r"<[^<>\s][^<>]*>")


def calls(folder, origin):
    site = Site(folder, origin)
    index = site.json(origin + INDEX)
    if not isinstance(index, dict):
        return []
    out = []
    for skill in index.get("skills") or []:
        url = skill.get("url") if isinstance(skill, dict) else None
        path = site.file(urljoin(origin + INDEX, url)) if isinstance(url, str) else None
        if path is None:
            continue
        with open(path, encoding="utf-8") as f:
            out.extend(calls_in(f.read()))
    return out


def calls_in(text):
    """The example calls of one SKILL.md, each named by the capability it follows."""
    out, name, lines, i = [], "?", text.splitlines(), 0
    while i < len(lines):
        m = CAPABILITY.match(lines[i])
        if m:
            name = m.group(1)
        if lines[i].strip() == FENCE + "http":
            end = i + 1
            while end < len(lines) and lines[end].strip() != FENCE:
                end += 1
            out.append(call_for(name, lines[i + 1:end]))
            i = end
        i += 1
    return out


def with_credentials(text):
    for placeholder, credential in CREDENTIALS:
        text = placeholder.sub(lambda _: credential, text)
    return text


def call_for(name, block):
    """`METHOD URL`, header lines, a blank line and the body, as an example writes them."""
    method, _, url = (block[0] if block else "").partition(" ")
    url = with_credentials(url)
    parts = urlsplit(url.strip())
    call = Call("skills", name, method or "GET", urlunsplit(parts._replace(query="")))
    call.query = parse_qsl(parts.query, keep_blank_values=True)
    body_at = next((k for k, line in enumerate(block) if not line.strip()), len(block))
    for line in block[1:body_at]:
        key, _, value = line.partition(":")
        call.headers[key.strip()] = with_credentials(value.strip())
    body = "\n".join(block[body_at + 1:])
    if body_at < len(block):
        # A multipart body's line breaks are CRLF on the wire, as in every HTTP message.
        multipart = call.headers.get("Content-Type", "").lower().startswith("multipart/")
        call.body = (body.replace("\n", "\r\n") if multipart else body).encode()
    left = [t for t in (unquote(url), *call.headers.values(), body) if PLACEHOLDER.search(t)]
    if left:
        call.refused = ("unfilled-placeholder", f"the example leaves {PLACEHOLDER.search(left[0]).group(0)} to fill")
    return call
