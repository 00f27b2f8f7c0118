"""An HTTP call as an agent composes it, before the harness sends it anywhere.

Agents fill `Call`s with the API's own URLs (the ones its documents name); `encode` turns
query values and body fields into bytes the way each media type says.
"""
import base64
import json
from xml.sax.saxutils import escape
from urllib.parse import quote, urlencode

# The fixed dummy credentials both agents use.
API_KEY = "rt-api-key-0123456789"
BEARER = "rt-bearer-token-0123456789"
BASIC_USER, BASIC_PASSWORD = "rt-user", "rt-password"


class Call:
    def __init__(self, agent, name, method, url):
        self.agent = agent  # "ai", "mcp" or "skills"
        self.name = name  # capability id or tool name
        self.method = method.upper()
        self.url = url  # absolute, placeholders filled, no query
        self.query = []  # (name, value) pairs
        self.headers = {}
        self.cookies = {}
        self.body = None  # bytes, when there is one
        self.refused = None  # (class, message) when the agent could not make the call
        self.note = None  # what the agent could not follow but sent anyway (e.g. auth)

    def add_query(self, name, value):
        for v in (value if isinstance(value, list) else [value]):
            self.query.append((name, text(v)))

    def full_url(self):
        return self.url + ("?" + urlencode(self.query) if self.query else "")

    def header_lines(self):
        headers = dict(self.headers)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    def describe(self):
        body = ""
        if self.body is not None:
            shown = self.body[:160].decode("utf-8", "replace")
            body = f" body={shown!r}"
        return f"{self.method} {self.full_url()} headers={self.header_lines()}{body}"


def text(value):
    """A value in a URL, a header or a form field: JSON words for booleans and null, JSON for
    objects, numbers and strings as written."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def path_segment(value):
    return quote(text(value), safe="")


def basic_credentials():
    raw = f"{BASIC_USER}:{BASIC_PASSWORD}".encode()
    return "Basic " + base64.b64encode(raw).decode()


def xml_elements(value):
    """An object's fields as XML elements named by their keys, nested as the object nests (a
    list repeats its element): the usual reading of a JSON shape as XML."""
    out = []
    for k, v in value.items():
        for item in (v if isinstance(v, list) else [v]):
            inner = xml_elements(item) if isinstance(item, dict) else escape(text(item))
            out.append(f"<{k}>{inner}</{k}>")
    return "".join(out)


def set_body(call, media_type, fields=None, whole=None, has_whole=False):
    """Encodes the body: `whole` is the entire body, else `fields` are the fields of an object."""
    media = (media_type or "application/json").split(";")[0].strip().lower()
    value = whole if has_whole else (fields or {})
    if media == "application/json" or media.endswith("+json"):
        data = json.dumps(value).encode()
    elif media == "application/x-www-form-urlencoded":
        pairs = []
        if isinstance(value, dict):
            for k, v in value.items():
                for item in (v if isinstance(v, list) else [v]):
                    pairs.append((k, text(item)))
            data = urlencode(pairs).encode()
        else:
            data = text(value).encode()
    elif media == "multipart/form-data":
        boundary = "roundtrip0boundary0a1b2c3"
        chunks = []
        items = value.items() if isinstance(value, dict) else [("file", value)]
        for k, v in items:
            for item in (v if isinstance(v, list) else [v]):
                chunks.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n"
                              f"{text(item)}\r\n")
        chunks.append(f"--{boundary}--\r\n")
        data = "".join(chunks).encode()
        media_type = f"multipart/form-data; boundary={boundary}"
    elif (media.endswith("/xml") or media.endswith("+xml")) and isinstance(value, dict):
        data = xml_elements(value).encode()
    elif isinstance(value, (dict, list)):
        data = json.dumps(value).encode()
    else:
        data = text(value).encode()
    call.headers["Content-Type"] = media_type if media == "multipart/form-data" else (media_type or media)
    call.body = data
