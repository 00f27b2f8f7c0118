"""The aiendpoint compact parameter notation as docs/targets/ai.md states it:

    <type>, <required|optional>[, <constraint>]… [-- <description>]

read into a `Param` whose `schema` is the small schema dict values.py takes. A value written as
a JSON string (`"a, b"`) is decoded; every other value is bare text, typed by the parameter.
"""
import json

from values import typed

TYPES = ("string", "integer", "number", "boolean", "array", "object")
PLACES = ("query", "header", "cookie", "path", "body")


class Param:
    def __init__(self, kind, required):
        self.kind = kind
        self.required = required
        self.place = None  # from `in <place>`; None: the default for the method
        self.whole_body = False  # `body`: the parameter is the whole request body
        self.wire = None  # from `name <wire>`: the name the request carries, when not the key
        self.schema = {"type": kind}
        self.description = None


def split_top(text, sep):
    """Splits at `sep` outside JSON strings and braces; also returns where a top-level ` --`
    begins the description (or None)."""
    parts, depth, start, i, in_str = [], 0, 0, 0, False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and text.startswith("--", i) and sep == ",":
            parts.append(text[start:i])
            return parts, i
        elif depth == 0 and c == sep:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return parts, None


def read_value(text):
    """A value as written: a JSON string decoded, else the bare text."""
    text = text.strip()
    if text.startswith('"'):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def parse(text):
    """The Param a compact string describes; raises ValueError when it is not the notation."""
    parts, desc_at = split_top(text, ",")
    if desc_at is not None:
        description = text[desc_at + 2:].strip()
    else:
        description = None
    parts = [p.strip() for p in parts]
    if len(parts) < 2 or parts[0] not in TYPES or parts[1] not in ("required", "optional"):
        raise ValueError(f"not the compact notation: {text!r}")
    param = Param(parts[0], parts[1] == "required")
    param.description = description
    for part in parts[2:]:
        if part:
            constrain(param, part)
    return param


def constrain(param, part):
    s, kind = param.schema, param.kind
    word, _, rest = part.partition(" ")
    rest = rest.strip()
    if word in ("in", "name", "format", "items", "fields", "const", "pattern", "default", "example", "min", "max", "minLength", "maxLength") and not rest:
        raise ValueError(f"`{word}` without a value: {part!r}")
    if word == "in" and rest in PLACES:
        param.place = rest
    elif part == "body":
        param.whole_body = True
    elif word == "name":
        param.wire = read_value(rest)
    elif word in ("minLength", "maxLength") and rest.isdigit():
        if kind == "string":
            s[word] = int(rest)
    elif word == "format":
        s["format"] = rest
    elif word == "items":
        s["items"] = nested_type(rest)
    elif word == "fields":
        s.update(fields(rest))
    elif word == "const":
        s["const"] = typed(read_value(rest), kind)
    elif word == "pattern":
        s["pattern"] = read_value(rest)
    elif word == "default":
        s["default"] = read_value(rest)
    elif word == "example":
        s["example"] = read_value(rest)
    elif word in ("min", "max") and is_number(rest):
        n = float(rest)
        n = int(n) if n.is_integer() else n
        if kind in ("integer", "number"):
            s["minimum" if word == "min" else "maximum"] = n
    elif "|" in part:
        values, _ = split_top(part, "|")
        s["enum"] = [typed(read_value(v), kind) for v in values]
    else:
        raise ValueError(f"not a constraint: {part!r}")


def is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def nested_type(text):
    """`<type>`, `<type> {a: <type>, …}` (an object's required fields), `array items <type>`,
    or a scalar's format, bounds and allowed values (`string format uuid`, `integer min 1 max 9`,
    `string a|b`, `string const v`) as a schema."""
    text = text.strip()
    kind, _, rest = text.partition(" ")
    schema = {"type": kind}
    rest = rest.strip()
    for word, key in (("format", "format"), ("min", "minimum"), ("max", "maximum")):
        if rest.startswith(word + " ") and kind not in ("array", "object"):
            words, _ = split_top(rest[len(word) + 1:].strip(), " ")
            value = read_value(words[0])
            schema[key] = value if key == "format" else typed(value, "number")
            rest = rest[len(word) + 1:].strip()[len(words[0]):].strip()
    if rest.startswith("{"):
        schema.update(fields(rest))
    elif rest.startswith("items "):
        schema["items"] = nested_type(rest[len("items "):])
    elif rest.startswith("const "):
        schema["const"] = typed(read_value(rest[len("const "):]), kind)
    elif rest:
        values, _ = split_top(rest, "|")
        schema["enum"] = [typed(read_value(v), kind) for v in values]
    return schema


def fields(text):
    """`{a: <type>, b: <type> {…}}`: required properties."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        raise ValueError(f"not a fields list: {text!r}")
    props, required = {}, []
    inner = text[1:-1]
    if inner.strip():
        entries, _ = split_top(inner, ",")
        for entry in entries:
            # The name ends at the first `:` outside a JSON string.
            head = split_top(entry, ":")[0][0]
            if len(head) == len(entry):
                raise ValueError(f"not a field: {entry!r}")
            name, kind = read_value(head), entry[len(head) + 1:]
            props[name] = nested_type(kind)
            required.append(name)
    return {"type": "object", "properties": props, "required": required}
