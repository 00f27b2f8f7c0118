"""Values an agent sends: one valid value for a JSON-Schema-like description.

Both agents turn what they read into the same small schema dict (`type`, `format`, `enum`,
`const`, `pattern`, `default`, `minimum`/`maximum`, `minLength`/`maxLength`, `example`,
`items`, `properties` with `required`) and ask `value_for` for a value. The rules, in order:
`const`, the first `enum` value, the `example`, the `default`, a `pattern` match, a value for
the `format`, then a plain value of the type within its bounds.
"""
import re

FORMATS = {
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "date-time": "2024-01-02T03:04:05Z",
    "date": "2024-01-02",
    "time": "03:04:05Z",
    "duration": "P1D",
    "email": "agent@example.com",
    "idn-email": "agent@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "iri": "https://example.com/a",
    "uri-reference": "https://example.com/a",
    "iri-reference": "https://example.com/a",
    "uri-template": "https://example.com/{a}",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "byte": "YWJj",
    "binary": "abc",
    "password": "secret",
    "int32": "1",
    "int64": "1",
    "double": "1.5",
    "float": "1.5",
    "json-pointer": "/a",
    "regex": "a",
}


def first_type(schema):
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    if t is None:
        if "properties" in schema:
            return "object"
        if "items" in schema:
            return "array"
    return t


def typed(value, kind):
    """A value read as text (`example 3`) in the type the parameter has; None if it is not one."""
    if not isinstance(value, str) or kind in (None, "string"):
        return value
    try:
        if kind == "integer":
            return int(value)
        if kind == "number":
            f = float(value)
            return int(f) if f.is_integer() else f
        if kind == "boolean":
            return {"true": True, "false": False}[value]
        if kind in ("array", "object"):
            import json
            parsed = json.loads(value)
            return parsed if isinstance(parsed, list if kind == "array" else dict) else None
    except (ValueError, KeyError):
        return None
    return value


def fits(value, schema):
    """Whether a given value (an example, a default) obeys the schema's type and bounds."""
    kind = first_type(schema)
    checks = {"string": lambda v: isinstance(v, str),
              "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
              "boolean": lambda v: isinstance(v, bool),
              "array": lambda v: isinstance(v, list),
              "object": lambda v: isinstance(v, dict)}
    if kind in checks and not checks[kind](value):
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30):
            return False
        if "pattern" in schema and not matches(schema["pattern"], value):
            return False
    return True


def matches(pattern, value):
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return True  # a regex Python cannot read is not held against the value


def value_for(schema, depth=0, root=None):
    """`root`: the document a local `$ref` (`#/$defs/x`) points into."""
    schema = merged(resolve(schema or {}, root))
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        non_null = [v for v in schema["enum"] if v is not None]
        return non_null[0] if non_null else schema["enum"][0]
    kind = first_type(schema)
    for key in ("example", "default"):
        if key in schema:
            v = typed(schema[key], kind)
            if v is not None and fits(v, schema):
                return v
    examples = schema.get("examples")
    if isinstance(examples, list) and examples and fits(examples[0], schema):
        return examples[0]
    if kind == "integer" or (kind == "number" and schema.get("format") in ("int32", "int64")):
        return number_in(schema, 1, integer=True)
    if kind == "number":
        return number_in(schema, 1, integer=False)
    if kind == "boolean":
        return True
    if kind == "array":
        n = max(1, schema.get("minItems", 1))
        item = value_for(schema.get("items") or {"type": "string"}, depth + 1, root)
        return [item] * n if not schema.get("uniqueItems") or n == 1 else [item]
    if kind == "object":
        props = schema.get("properties") or {}
        if depth > 8:
            return {}
        return {name: value_for(props.get(name) or {"type": "string"}, depth + 1, root)
                for name in schema.get("required") or [] }
    return string_for(schema)


def resolve(schema, root):
    """A local `$ref` followed (a few steps at most, so a cycle ends)."""
    for _ in range(8):
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not (isinstance(ref, str) and ref.startswith("#/") and root is not None):
            break
        target = root
        for token in ref[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            break
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema if isinstance(schema, dict) else {}


def merged(schema):
    """`allOf` folded into one schema, the first non-null `anyOf`/`oneOf` alternative taken."""
    if not isinstance(schema, dict):
        return {}
    if "allOf" in schema:
        out = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = merged(part)
            for k, v in part.items():
                if k == "properties":
                    out.setdefault("properties", {}).update(v)
                elif k == "required":
                    out["required"] = list(out.get("required", [])) + list(v)
                else:
                    out.setdefault(k, v)
        schema = out
    for key in ("anyOf", "oneOf"):
        if key in schema and "type" not in schema:
            alternatives = [a for a in schema[key] if isinstance(a, dict) and a.get("type") != "null"]
            if alternatives:
                out = {k: v for k, v in schema.items() if k != key}
                out.update(merged(alternatives[0]))
                return out
    return schema


def number_in(schema, preferred, integer):
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if "exclusiveMinimum" in schema and not isinstance(schema["exclusiveMinimum"], bool):
        lo = schema["exclusiveMinimum"] + (1 if integer else 0.5)
    if "exclusiveMaximum" in schema and not isinstance(schema["exclusiveMaximum"], bool):
        hi = schema["exclusiveMaximum"] - (1 if integer else 0.5)
    v = preferred
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    if integer:
        import math
        v = math.ceil(v) if lo is not None and v == lo else int(v)
    step = schema.get("multipleOf")
    if isinstance(step, (int, float)) and step > 0 and v % step:
        v = step * (int(v // step) + 1)
    return int(v) if integer or float(v).is_integer() else v


def string_for(schema):
    pattern = schema.get("pattern")
    lo, hi = schema.get("minLength", 0), schema.get("maxLength")
    if isinstance(pattern, str):
        s = from_pattern(pattern)
        if s is not None:
            # The shortest match may be shorter than `minLength` (`^[a-z]*$`): lengthen it with
            # a character the pattern takes.
            for candidate in [s] + [s + c * (lo - len(s)) for c in "a0A_-" if lo > len(s)]:
                if matches(pattern, candidate) and lo <= len(candidate) <= (hi or 1 << 30):
                    return candidate
            return s
    s = FORMATS.get(schema.get("format"), "abc")
    if len(s) < lo:
        s = s + "a" * (lo - len(s))
    if hi is not None and len(s) > hi:
        s = s[:max(hi, lo, 0)]
    return s


# --- A string matching a regular expression (the common ECMA-262 subset) --------------------

class _Unsupported(Exception):
    pass


def from_pattern(pattern):
    """A short string the pattern matches, checked with Python's `re`; None when the pattern
    uses what this generator does not know (lookarounds, backreferences)."""
    try:
        node, end = _alternation(pattern, 0)
        if end != len(pattern):
            raise _Unsupported
        out = _emit(node)
    except (_Unsupported, IndexError, RecursionError):
        return None
    return out if matches(pattern, out) else None


_CLASS = {"d": "0", "w": "a", "s": " ", "D": "a", "W": "-", "S": "a"}
_CLASS_SETS = {"d": "0123456789", "w": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
               "s": " \t"}
_PRINTABLE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. "


def _alternation(p, i):
    branches = []
    seq, i = _sequence(p, i)
    branches.append(seq)
    while i < len(p) and p[i] == "|":
        seq, i = _sequence(p, i + 1)
        branches.append(seq)
    return ("alt", branches), i


def _sequence(p, i):
    items = []
    while i < len(p) and p[i] not in "|)":
        atom, i = _atom(p, i)
        atom, i = _quantifier(p, i, atom)
        items.append(atom)
    return ("seq", items), i


def _atom(p, i):
    c = p[i]
    if c == "^" or c == "$":
        return ("lit", ""), i + 1
    if c == "(":
        i += 1
        if p.startswith("?:", i):
            i += 2
        elif p.startswith("?<", i) and p[i + 2] not in "=!":
            i = p.index(">", i) + 1
        elif p[i] == "?":
            raise _Unsupported
        node, i = _alternation(p, i)
        if p[i] != ")":
            raise _Unsupported
        return node, i + 1
    if c == "[":
        return _char_class(p, i + 1)
    if c == ".":
        return ("lit", "a"), i + 1
    if c == "\\":
        e = p[i + 1]
        if e in _CLASS:
            return ("lit", _CLASS[e]), i + 2
        if e.isdigit() and e != "0":
            raise _Unsupported
        if e in "bB":
            return ("lit", ""), i + 2
        if e == "u":
            return ("lit", chr(int(p[i + 2:i + 6], 16))), i + 6
        if e == "x":
            return ("lit", chr(int(p[i + 2:i + 4], 16))), i + 4
        return ("lit", {"n": "\n", "t": "\t", "r": "\r"}.get(e, e)), i + 2
    return ("lit", c), i + 1


def _char_class(p, i):
    negate = p[i] == "^"
    if negate:
        i += 1
    chars, first = set(), True
    while p[i] != "]" or first:
        first = False
        c = p[i]
        if c == "\\":
            e = p[i + 1]
            i += 2
            if e in _CLASS_SETS:
                chars |= set(_CLASS_SETS[e])
                continue
            c = {"n": "\n", "t": "\t", "r": "\r"}.get(e, e)
        else:
            i += 1
        if p[i] == "-" and p[i + 1] != "]":
            hi = p[i + 1]
            if hi == "\\":
                hi = p[i + 2]
                i += 1
            chars |= {chr(x) for x in range(ord(c), ord(hi) + 1)}
            i += 2
        else:
            chars.add(c)
    if negate:
        pick = next((x for x in _PRINTABLE if x not in chars), None)
    else:
        preferred = [x for x in _PRINTABLE if x in chars]
        pick = preferred[0] if preferred else min(chars)
    if pick is None:
        raise _Unsupported
    return ("lit", pick), i + 1


def _quantifier(p, i, atom):
    if i >= len(p):
        return atom, i
    c = p[i]
    if c in "*+?":
        n = 1 if c == "+" else 0
        i += 1
    elif c == "{" and re.match(r"\{\d+(,\d*)?\}", p[i:]):
        m = re.match(r"\{(\d+)(,(\d*))?\}", p[i:])
        n = int(m.group(1))
        i += m.end()
    else:
        return atom, i
    if i < len(p) and p[i] in "?+":
        i += 1  # lazy or possessive: the count is the same
    return ("rep", atom, n), i


def _emit(node):
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "seq":
        return "".join(_emit(x) for x in node[1])
    if kind == "alt":
        return _emit(node[1][0])
    if kind == "rep":
        return _emit(node[1]) * node[2]
    raise _Unsupported
