//! Parameters, and the aiendpoint compact notation
//! `<type>, <requirement>[, <constraints>] [-- <description>]` read and written.

use serde_json::{Map, Value};

use super::Method;
use super::schemas::Schemas;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
}

impl ParamType {
    pub const NAMES: [&'static str; 6] =
        ["string", "integer", "number", "boolean", "array", "object"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => Self::String,
            "integer" => Self::Integer,
            "number" => Self::Number,
            "boolean" => Self::Boolean,
            "array" => Self::Array,
            "object" => Self::Object,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn with_article(self) -> String {
        with_article(self.as_str())
    }

    /// Whether a JSON value has this type (integers are numbers too).
    pub fn admits(self, v: &Value) -> bool {
        match self {
            Self::String => v.is_string(),
            Self::Integer => v.is_i64() || v.is_u64(),
            Self::Number => v.is_number(),
            Self::Boolean => v.is_boolean(),
            Self::Array => v.is_array(),
            Self::Object => v.is_object(),
        }
    }
}

/// Where a parameter travels in the HTTP request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamIn {
    Path,
    Query,
    Header,
    Body,
}

impl ParamIn {
    pub const NAMES: [&'static str; 4] = ["path", "query", "header", "body"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "path" => Self::Path,
            "query" => Self::Query,
            "header" => Self::Header,
            "body" => Self::Body,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamType,
    pub required: bool,
    pub location: ParamIn,
    pub description: Option<String>,
    pub default: Option<Value>,
    pub allowed: Vec<Value>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub pattern: Option<String>,
    pub example: Option<Value>,
    /// Element type of an array.
    pub items: Option<ParamType>,
    /// Whether `null` is a value too (OpenAPI 3.0 `nullable`, a `null` alternative).
    pub nullable: bool,
    /// JSON Schema keywords the fields above cannot say (`format`, nested `properties`,
    /// `items`, `anyOf`), a JSON object: typed targets add them to the schema they render.
    pub schema: Option<Value>,
    /// The compact string exactly as the author wrote it, if they wrote one.
    pub compact: Option<String>,
    /// The name the HTTP request carries when it differs from `name` (a body field renamed
    /// `body_<name>` beside a path parameter of that name).
    pub wire_name: Option<String>,
}

impl Param {
    /// A parameter that says nothing but its name, type, whether it is required and where it
    /// goes; every other fact is left out.
    pub fn plain(name: &str, kind: ParamType, required: bool, location: ParamIn) -> Self {
        Param {
            name: name.to_string(),
            kind,
            required,
            location,
            description: None,
            default: None,
            allowed: Vec::new(),
            min: None,
            max: None,
            pattern: None,
            example: None,
            items: None,
            nullable: false,
            schema: None,
            compact: None,
            wire_name: None,
        }
    }

    /// The name on the wire: in the path template, the query, the header or the body.
    pub fn wire(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }
}

impl Param {
    /// Completes a JSON Schema rendered from the fields above with what they cannot say: the
    /// imported keywords are added (replacing a rendered one of the same name, e.g. `items`
    /// with its properties; alternatives of no one type, its own or those of the named schema
    /// it refers to in `schemas`, replace the rendered `type`), then `null` joins the type and
    /// the enum of a nullable parameter. Without either, `schema` is left as it was.
    pub fn extend_schema(&self, schema: &mut Map<String, Value>, schemas: &Schemas) {
        if let Some(extra) = self.schema.as_ref().filter(|s| s.is_object()) {
            let keyword = |k: &str| schemas.keyword(extra, k);
            let alternatives = keyword("anyOf").is_some() || keyword("oneOf").is_some();
            if alternatives && keyword("type").is_none() {
                schema.remove("type");
                schema.remove("items");
            }
            for (key, value) in extra.as_object().into_iter().flatten() {
                schema.insert(key.clone(), value.clone());
            }
        }
        if self.nullable {
            match schema.get_mut("type") {
                Some(Value::String(t)) => {
                    let t = std::mem::take(t);
                    schema.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
                }
                Some(Value::Array(list)) if !list.contains(&"null".into()) => {
                    list.push("null".into());
                }
                _ => {}
            }
            if let Some(Value::Array(values)) = schema.get_mut("enum")
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
        }
    }

    /// The compact notation with no place stated: the author's own text when it says this
    /// parameter's facts, else written canonically. A document's notation is
    /// [`Param::notation`], which knows the capability.
    pub fn compact(&self) -> String {
        self.notation(self.location, false, &Schemas::default())
    }
}

/// The notation's `in` places (docs/targets/ai.md): `cookie` is read, never written (the model
/// has no cookie parameter).
pub const PLACES: [&str; 5] = ["query", "header", "cookie", "path", "body"];

/// Words that open a constraint: a value starting with one of them, then a space, is quoted
/// where it could be read as that constraint (an allowed value, a description).
const CONSTRAINT_WORDS: [&str; 13] = [
    "in",
    "name",
    "format",
    "items",
    "fields",
    "const",
    "pattern",
    "default",
    "min",
    "max",
    "minLength",
    "maxLength",
    "example",
];

/// How deep `fields` and `items` describe nested objects and arrays.
const SHAPE_DEPTH: usize = 4;

/// The type of a value and what it holds: an array's items, an object's required fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub kind: ParamType,
    /// An array's items, when known.
    pub items: Option<Box<Shape>>,
    /// An object's required fields, in order.
    pub fields: Vec<(String, Shape)>,
    /// A scalar's JSON Schema format, where it narrows the values a call may send (`uuid`,
    /// `date-time`; not a number's width, which any small value meets).
    pub format: Option<String>,
    /// A number's bounds (`minimum`, `maximum`; an integer's exclusive ones as the integer
    /// inside them).
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// A scalar's allowed values (`enum`, or `const` as one), as written.
    pub values: Vec<String>,
}

impl Shape {
    pub fn of(kind: ParamType) -> Self {
        Shape {
            kind,
            items: None,
            fields: Vec::new(),
            format: None,
            min: None,
            max: None,
            values: Vec::new(),
        }
    }

    /// The shape a JSON Schema describes, to `depth` levels: its type (the first of a list or
    /// of alternatives, `null` aside), an array's `items`, an object's `required` properties.
    pub fn from_schema(schema: &Value, depth: usize, schemas: &Schemas) -> Option<Shape> {
        let schema = lone_alternative(schema, schemas);
        let kind = schema_kind(schema, schemas, KIND_HOPS)?;
        let mut shape = Shape::of(kind);
        if depth == 0 {
            return Some(shape);
        }
        match kind {
            ParamType::Array => {
                shape.items = schemas
                    .keyword(schema, "items")
                    .and_then(|i| Shape::from_schema(i, depth - 1, schemas))
                    .map(Box::new);
            }
            ParamType::Object => shape.fields = required_fields(schema, depth - 1, schemas),
            _ => {
                shape.format = schemas
                    .keyword(schema, "format")
                    .and_then(Value::as_str)
                    .filter(|f| !matches!(*f, "int32" | "int64" | "float" | "double"))
                    .map(str::to_string);
                if matches!(kind, ParamType::Integer | ParamType::Number) {
                    (shape.min, shape.max) = bounds(schema, kind, schemas);
                }
                shape.values = schema_values(schema, schemas);
            }
        }
        Some(shape)
    }

    fn write(&self, out: &mut String) {
        out.push_str(self.kind.as_str());
        if let Some(items) = &self.items {
            out.push_str(" items ");
            items.write(out);
        }
        if !self.fields.is_empty() {
            out.push(' ');
            write_fields(&self.fields, out);
        }
        if let Some(format) = &self.format {
            out.push_str(" format ");
            out.push_str(&quoted_word(format));
        }
        for (word, bound) in [(" min ", self.min), (" max ", self.max)] {
            if let Some(n) = bound {
                out.push_str(word);
                out.push_str(&number(n));
            }
        }
        match &self.values[..] {
            [] => {}
            [one] => {
                out.push_str(" const ");
                out.push_str(&quoted(one));
            }
            many => {
                // A value that opens like `const v`, `format f` or `min n` is quoted, so that
                // the first reads back as a value (the others need not be, and are alike).
                let values: Vec<String> = many
                    .iter()
                    .map(|v| {
                        match SHAPE_WORDS.iter().any(|w| v.starts_with(w)) && !needs_quotes(v) {
                            true => serde_json::to_string(v).unwrap_or_default(),
                            false => quoted(v),
                        }
                    })
                    .collect();
                out.push(' ');
                out.push_str(&values.join("|"));
            }
        }
    }

    fn parse(text: &str) -> Result<Shape, String> {
        let text = text.trim();
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        let kind = ParamType::parse(word).ok_or_else(|| {
            format!(
                "`{word}` is not a type (one of {})",
                ParamType::NAMES.join(", ")
            )
        })?;
        let mut shape = Shape::of(kind);
        let rest = rest.trim();
        match kind {
            _ if rest.is_empty() => {}
            ParamType::Array => {
                let items = rest
                    .strip_prefix("items ")
                    .ok_or_else(|| format!("`{rest}`: an array says `items <type>`"))?;
                shape.items = Some(Box::new(Shape::parse(items)?));
            }
            ParamType::Object => shape.fields = parse_fields(rest)?,
            _ => {
                let mut rest = rest;
                // `format f`, `min n`, `max n`, in that order, each a word after its name.
                for name in ["format ", "min ", "max "] {
                    let Some(after) = rest.strip_prefix(name) else {
                        continue;
                    };
                    let word = split_top(after.trim_start(), ' ')[0];
                    match name {
                        "format " => shape.format = Some(unquote(word)),
                        _ if !matches!(kind, ParamType::Integer | ParamType::Number) => {
                            return Err(format!("`{text}`: only a number has `{}`", name.trim()));
                        }
                        _ => {
                            let n = word
                                .parse::<f64>()
                                .ok()
                                .filter(|n| n.is_finite())
                                .ok_or_else(|| format!("`{word}` is not a number"))?;
                            *(if name == "min " {
                                &mut shape.min
                            } else {
                                &mut shape.max
                            }) = Some(n);
                        }
                    }
                    rest = after.trim_start()[word.len()..].trim();
                }
                if rest.is_empty() {
                    return Ok(shape);
                }
                shape.values = match rest.strip_prefix("const ") {
                    Some(one) => vec![unquote(one)],
                    None => match split_top(rest, '|') {
                        many if many.len() > 1 => many.into_iter().map(unquote).collect(),
                        _ => {
                            return Err(format!(
                                "`{text}`: a {word} holds nothing more than its allowed values \
                                 (`a|b`, `const v`)"
                            ));
                        }
                    },
                };
            }
        }
        Ok(shape)
    }
}

/// A bound as a JSON number: a whole one as an integer (`50`, not `50.0`), as schemas and the
/// drafts' examples write bounds; `null` for a number JSON has not (bounds are finite).
pub fn json_number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

/// The words a shape's scalar says before its allowed values: a first value that begins with one
/// is quoted.
const SHAPE_WORDS: [&str; 4] = ["const ", "format ", "min ", "max "];

/// A number schema's bounds: `minimum` and `maximum`, and for an integer an exclusive bound (a
/// number, or `true` beside its bound as OpenAPI 3.0 writes it) as the integer inside it, the
/// tighter where both are given; a number's exclusive bound cannot be said as a closed one, and
/// is left out (its closed one stays).
fn bounds(schema: &Value, kind: ParamType, schemas: &Schemas) -> (Option<f64>, Option<f64>) {
    let number = |k: &str| {
        schemas
            .keyword(schema, k)
            .and_then(Value::as_f64)
            .filter(|n| n.is_finite())
    };
    let flag = |k: &str| schemas.keyword(schema, k) == Some(&Value::Bool(true));
    let integer = kind == ParamType::Integer;
    // The integers inside an open bound, and inside a closed one.
    let inside = |n: f64, up: bool| if up { n.floor() + 1.0 } else { n.ceil() - 1.0 };
    let within = |n: f64, up: bool| if up { n.ceil() } else { n.floor() };
    let tighter = |a: f64, b: f64, up: bool| if up { a.max(b) } else { a.min(b) };
    let bound = |closed: &str, open: &str, up: bool| {
        let closed_at = number(closed);
        match (number(open), closed_at) {
            _ if !integer => closed_at.filter(|_| !flag(open)),
            (Some(o), Some(c)) => Some(tighter(inside(o, up), within(c, up), up)),
            (Some(o), None) => Some(inside(o, up)),
            (None, Some(c)) if flag(open) => Some(inside(c, up)),
            (None, c) => c.map(|c| within(c, up)),
        }
    };
    (
        bound("minimum", "exclusiveMinimum", true),
        bound("maximum", "exclusiveMaximum", false),
    )
}

/// `{a: <shape>, b: <shape>}`.
fn write_fields(fields: &[(String, Shape)], out: &mut String) {
    out.push('{');
    for (i, (name, shape)) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&field_name(name));
        out.push_str(": ");
        shape.write(out);
    }
    out.push('}');
}

fn parse_fields(text: &str) -> Result<Vec<(String, Shape)>, String> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| format!("`{text}`: fields are written `{{a: <type>, …}}`"))?;
    let mut out = Vec::new();
    for part in split_top(inner, ',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let colon = find_top(part, ": ")
            .ok_or_else(|| format!("`{part}`: a field is written `name: <type>`"))?;
        let name = unquote(&part[..colon]);
        out.push((name, Shape::parse(&part[colon + 2..])?));
    }
    Ok(out)
}

/// A scalar schema's allowed values: its `enum`, else its `const`; none when they are not
/// scalars.
fn schema_values(schema: &Value, schemas: &Schemas) -> Vec<String> {
    let list = match (
        schemas.keyword(schema, "enum"),
        schemas.keyword(schema, "const"),
    ) {
        (Some(Value::Array(list)), _) => list.as_slice(),
        (None, Some(one)) => std::slice::from_ref(one),
        _ => return Vec::new(),
    };
    if list.iter().any(|v| v.is_object() || v.is_array()) {
        return Vec::new();
    }
    list.iter().map(plain).collect()
}

/// The required properties of an object schema with their shapes (a property of no known
/// type is said to be a string: it is named, which is what a call needs first).
fn required_fields(schema: &Value, depth: usize, schemas: &Schemas) -> Vec<(String, Shape)> {
    let schema = lone_alternative(schema, schemas);
    let props = schemas
        .keyword(schema, "properties")
        .and_then(Value::as_object);
    let Some(required) = schemas
        .keyword(schema, "required")
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    let mut out: Vec<(String, Shape)> = Vec::new();
    for name in required.iter().filter_map(Value::as_str) {
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        let shape = props
            .and_then(|p| p.get(name))
            .and_then(|s| Shape::from_schema(s, depth, schemas))
            .unwrap_or_else(|| Shape::of(ParamType::String));
        out.push((name.to_string(), shape));
    }
    out
}

/// How many alternatives deep [`schema_kind`] looks: alternatives that refer back to the
/// schema holding them would otherwise send it round for ever.
const KIND_HOPS: usize = 8;

/// What a schema of no fields or items of its own whose alternatives are one schema and `null`
/// (`anyOf: [{$ref: Owner}, {type: null}]`) stands for: that schema, `KIND_HOPS` deep at most.
fn lone_alternative<'a>(mut schema: &'a Value, schemas: &'a Schemas) -> &'a Value {
    for _ in 0..KIND_HOPS {
        let own = |k| schemas.keyword(schema, k).is_some();
        if own("properties") || own("items") {
            break;
        }
        let lone = ["anyOf", "oneOf"].iter().find_map(|k| {
            let list = schemas.keyword(schema, k)?.as_array()?;
            let null = |s: &Value| schemas.keyword(s, "type").is_some_and(|t| t == "null");
            let mut others = list.iter().filter(|s| !null(s));
            let one = others.next()?;
            others.next().is_none().then_some(one)
        });
        match lone {
            Some(one) => schema = one,
            None => break,
        }
    }
    schema
}

/// The one type a schema names: `type` (the first but `null` of a list), else the first
/// alternative's (`hops` levels of them at most), else what its keywords imply.
fn schema_kind(schema: &Value, schemas: &Schemas, hops: usize) -> Option<ParamType> {
    let keyword = |k: &str| schemas.keyword(schema, k);
    let named = match keyword("type") {
        Some(Value::String(t)) => ParamType::parse(t),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .find_map(ParamType::parse),
        _ => None,
    };
    named
        .or_else(|| {
            let hops = hops.checked_sub(1)?;
            ["anyOf", "oneOf", "allOf"].iter().find_map(|k| {
                keyword(k)
                    .and_then(Value::as_array)?
                    .iter()
                    .find_map(|s| schema_kind(s, schemas, hops))
            })
        })
        .or_else(|| keyword("properties").map(|_| ParamType::Object))
        .or_else(|| keyword("items").map(|_| ParamType::Array))
}

/// What a compact string says about a parameter: every fact of the notation's table, values
/// as the text they are (typed by the parameter's type when read into the model).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compact {
    pub kind: Option<ParamType>,
    pub required: bool,
    /// `in <place>`, one of [`PLACES`], when not the default place.
    pub location: Option<String>,
    /// `name <wire>`: the name the request carries, when not the key.
    pub wire_name: Option<String>,
    /// `body`: the parameter is the whole request body.
    pub whole_body: bool,
    pub format: Option<String>,
    pub items: Option<Shape>,
    pub fields: Vec<(String, Shape)>,
    /// `a|b|c`, or `const a` for one value.
    pub allowed: Vec<String>,
    pub pattern: Option<String>,
    pub default: Option<String>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// A string's length bounds (JSON Schema `minLength`, `maxLength`).
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub example: Option<String>,
    pub description: Option<String>,
}

impl Compact {
    /// The notation, constraints in the table's order; each value quoted where the reader
    /// would otherwise split or misread it. `parse_compact` reads it back to `self`.
    pub fn write(&self) -> String {
        let kind = self.kind.unwrap_or(ParamType::String);
        let mut out = format!(
            "{}, {}",
            kind.as_str(),
            if self.required {
                "required"
            } else {
                "optional"
            }
        );
        let mut put = |word: &str, value: &str| {
            out.push_str(", ");
            out.push_str(word);
            if !value.is_empty() {
                out.push(' ');
                out.push_str(value);
            }
        };
        if let Some(place) = &self.location {
            put("in", place);
        }
        if let Some(wire) = &self.wire_name {
            put("name", &quoted(wire));
        }
        if self.whole_body {
            put("body", "");
        }
        if let Some(f) = &self.format {
            put("format", &quoted(f));
        }
        if let Some(items) = &self.items {
            let mut text = String::new();
            items.write(&mut text);
            put("items", &text);
        }
        if !self.fields.is_empty() {
            let mut text = String::new();
            write_fields(&self.fields, &mut text);
            put("fields", &text);
        }
        match &self.allowed[..] {
            [] => {}
            [one] => put("const", &quoted(one)),
            many => {
                let values: Vec<String> = many.iter().map(|v| quoted_choice(v)).collect();
                out.push_str(", ");
                out.push_str(&values.join("|"));
            }
        }
        let mut put = |word: &str, value: &str| {
            out.push_str(", ");
            out.push_str(word);
            out.push(' ');
            out.push_str(value);
        };
        if let Some(p) = &self.pattern {
            put("pattern", &quoted(p));
        }
        if let Some(d) = &self.default {
            put("default", &quoted(d));
        }
        if let Some(n) = self.min {
            put("min", &number(n));
        }
        if let Some(n) = self.max {
            put("max", &number(n));
        }
        if let Some(n) = self.min_length {
            put("minLength", &n.to_string());
        }
        if let Some(n) = self.max_length {
            put("maxLength", &n.to_string());
        }
        if let Some(e) = &self.example {
            put("example", &quoted(e));
        }
        if let Some(d) = &self.description {
            out.push_str(" -- ");
            out.push_str(&quoted_description(d));
        }
        out
    }

    /// `self` without its description (the compact form's cut).
    pub fn facts_only(&self) -> Compact {
        Compact {
            description: None,
            ..self.clone()
        }
    }
}

/// Reads the compact notation. Constraints written after the `--` (as the draft's own §8.2
/// example does: `-- a|b|c, default a`) are recognised when every part of that tail is one.
pub fn parse_compact(text: &str) -> Result<Compact, String> {
    let (head, tail) = split_description(text);
    let mut parts = split_top(head, ',').into_iter().map(str::trim);
    let kind_word = parts.next().unwrap_or_default();
    let kind = ParamType::parse(kind_word).ok_or_else(|| {
        format!(
            "`{kind_word}` is not a parameter type (one of {})",
            ParamType::NAMES.join(", ")
        )
    })?;
    let required = match parts.next() {
        Some("required") => true,
        Some("optional") => false,
        Some(other) => {
            return Err(format!(
                "expected `required` or `optional` after the type, found `{other}`"
            ));
        }
        None => return Err("expected `required` or `optional` after the type".into()),
    };
    let mut out = Compact {
        kind: Some(kind),
        required,
        ..Compact::default()
    };
    for part in parts {
        apply_constraint(&mut out, part)?;
    }
    if let Some(tail) = tail {
        if let Some(text) = json_string(tail) {
            out.description = Some(text);
        } else if let Some(read) = tail_constraints(&out, tail) {
            out = read;
        } else if !tail.is_empty() {
            out.description = Some(tail.to_string());
        }
    }
    Ok(out)
}

/// `out` with the constraints of a description tail, when every comma-separated part of it is
/// one. Prose such as "default sort order" stays a description: in the tail, a constraint is
/// at most two words.
fn tail_constraints(out: &Compact, tail: &str) -> Option<Compact> {
    let mut probe = out.clone();
    let pieces = split_top(tail, ',');
    let all = pieces
        .iter()
        .map(|p| p.trim())
        .all(|p| p.split_whitespace().count() <= 2 && apply_constraint(&mut probe, p).is_ok());
    all.then_some(probe)
}

/// The text before the first `--` (or `—`) outside a quoted value, and the trimmed text after.
fn split_description(text: &str) -> (&str, Option<&str>) {
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        if rest.starts_with('"')
            && let Some(end) = string_end(rest)
        {
            i += end;
            continue;
        }
        for sep in ["--", "\u{2014}"] {
            if rest.starts_with(sep) {
                return (&text[..i], Some(text[i + sep.len()..].trim()));
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    (text, None)
}

/// The byte length of the JSON string literal `text` starts with, closing quote included.
fn string_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// `text` cut at every `sep` outside quoted values and braces.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    while i < text.len() {
        let rest = &text[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c == '"'
            && let Some(end) = string_end(rest)
        {
            i += end;
            continue;
        }
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
        i += c.len_utf8();
    }
    out.push(&text[start..]);
    out
}

/// Where `needle` first occurs outside quoted values and braces.
fn find_top(text: &str, needle: &str) -> Option<usize> {
    let (mut depth, mut i) = (0usize, 0);
    while i < text.len() {
        let rest = &text[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c == '"'
            && let Some(end) = string_end(rest)
        {
            i += end;
            continue;
        }
        if depth == 0 && rest.starts_with(needle) {
            return Some(i);
        }
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += c.len_utf8();
    }
    None
}

/// The string a whole JSON string literal holds.
fn json_string(text: &str) -> Option<String> {
    let text = text.trim();
    (text.starts_with('"') && string_end(text) == Some(text.len()))
        .then(|| serde_json::from_str::<String>(text).ok())
        .flatten()
}

/// A value as written: a JSON string literal read as its string, anything else as it is.
fn unquote(text: &str) -> String {
    let text = text.trim();
    json_string(text).unwrap_or_else(|| text.to_string())
}

fn apply_constraint(out: &mut Compact, part: &str) -> Result<(), String> {
    let part = part.trim();
    if part == "body" {
        out.whole_body = true;
        return Ok(());
    }
    if let Some((word, rest)) = part.split_once(' ')
        && CONSTRAINT_WORDS.contains(&word)
    {
        let rest = rest.trim();
        let number = || {
            rest.parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("`{part}`: `{word}` takes a number"))
        };
        match word {
            "in" => {
                if !PLACES.contains(&rest) {
                    return Err(format!("`{part}`: `in` takes one of {}", PLACES.join(", ")));
                }
                out.location = Some(rest.to_string());
            }
            "name" => out.wire_name = Some(unquote(rest)),
            "format" => out.format = Some(unquote(rest)),
            "items" => out.items = Some(Shape::parse(rest)?),
            "fields" => out.fields = parse_fields(rest)?,
            "const" => out.allowed = vec![unquote(rest)],
            "pattern" => out.pattern = Some(unquote(rest)),
            "default" => out.default = Some(unquote(rest)),
            "min" => out.min = Some(number()?),
            "max" => out.max = Some(number()?),
            "minLength" | "maxLength" => {
                let n = rest
                    .parse::<u64>()
                    .map_err(|_| format!("`{part}`: `{word}` takes a whole number"))?;
                if word == "minLength" {
                    out.min_length = Some(n);
                } else {
                    out.max_length = Some(n);
                }
            }
            _ => out.example = Some(unquote(rest)),
        }
        return Ok(());
    }
    let choices = split_top(part, '|');
    if choices.len() > 1 {
        out.allowed = choices.into_iter().map(unquote).collect();
        return Ok(());
    }
    Err(format!(
        "`{part}` is not a constraint (`in P`, `format F`, `items T`, `fields {{…}}`, `a|b|c`, \
         `const V`, `pattern R`, `default V`, `min N`, `max N`, `minLength N`, `maxLength N`, \
         `example V`, `name N`, `body`)"
    ))
}

/// Whether a value must be written as a JSON string to read back as itself.
fn needs_quotes(v: &str) -> bool {
    v.is_empty()
        || v.contains([',', '|', '{', '}', '"', '\u{2014}'])
        || v.contains("--")
        || v.starts_with(char::is_whitespace)
        || v.ends_with(char::is_whitespace)
}

/// A value that ends at the next space (a shape's format): quoted when it holds one too.
fn quoted_word(v: &str) -> String {
    if needs_quotes(v) || v.contains(char::is_whitespace) {
        serde_json::to_string(v).unwrap_or_default()
    } else {
        v.to_string()
    }
}

/// A value of the notation, quoted where it must be.
fn quoted(v: &str) -> String {
    if needs_quotes(v) {
        serde_json::to_string(v).unwrap_or_default()
    } else {
        v.to_string()
    }
}

/// An allowed value of several: quoted also when it opens like a constraint (`min 5`), which
/// the reader tries before a list of values.
fn quoted_choice(v: &str) -> String {
    let like_constraint = v == "body"
        || v.split_once(' ')
            .is_some_and(|(w, _)| CONSTRAINT_WORDS.contains(&w));
    if like_constraint && !needs_quotes(v) {
        serde_json::to_string(v).unwrap_or_default()
    } else {
        quoted(v)
    }
}

/// A field name, quoted also when it holds `:` or a space.
fn field_name(name: &str) -> String {
    if name.contains([':', ' ']) && !needs_quotes(name) {
        serde_json::to_string(name).unwrap_or_default()
    } else {
        quoted(name)
    }
}

/// A description as written after ` -- `: quoted only where it would read as something else
/// (constraints, a quoted value) or lose its outer spaces.
fn quoted_description(d: &str) -> String {
    let misread = d.is_empty()
        || d.starts_with(char::is_whitespace)
        || d.ends_with(char::is_whitespace)
        || json_string(d).is_some()
        || tail_constraints(&Compact::default(), d).is_some();
    if misread {
        serde_json::to_string(d).unwrap_or_default()
    } else {
        d.to_string()
    }
}

impl ParamIn {
    /// Where a parameter goes when its notation names no place (docs/targets/ai.md): the path
    /// when the path template holds it, else the query for `GET` and `DELETE`, else a field of
    /// the request body.
    pub fn default_for(method: Method, in_path: bool) -> ParamIn {
        if in_path {
            ParamIn::Path
        } else if matches!(method, Method::Get | Method::Delete) {
            ParamIn::Query
        } else {
            ParamIn::Body
        }
    }
}

impl Param {
    /// Everything the notation says of this parameter, given the place it goes by default and
    /// whether it is the whole request body ([`whole_body`]); the named schemas its schema
    /// refers to are read from `schemas`.
    pub fn facts(&self, default_in: ParamIn, whole_body: bool, schemas: &Schemas) -> Compact {
        let schema = self.schema.as_ref().map(|s| lone_alternative(s, schemas));
        let keyword = |k: &str| schema.and_then(|s| schemas.keyword(s, k));
        let length = |k: &str| {
            (self.kind == ParamType::String)
                .then(|| keyword(k).and_then(Value::as_u64))
                .flatten()
        };
        let items = (self.kind == ParamType::Array)
            .then(|| {
                keyword("items")
                    .and_then(|i| Shape::from_schema(i, SHAPE_DEPTH - 1, schemas))
                    .or_else(|| self.items.map(Shape::of))
            })
            .flatten();
        let fields = match (self.kind, schema) {
            (ParamType::Object, Some(s)) => required_fields(s, SHAPE_DEPTH - 1, schemas),
            _ => Vec::new(),
        };
        Compact {
            kind: Some(self.kind),
            required: self.required,
            location: (!whole_body && self.location != default_in)
                .then(|| self.location.as_str().to_string()),
            wire_name: (self.wire() != self.name).then(|| self.wire().to_string()),
            whole_body,
            format: keyword("format")
                .and_then(Value::as_str)
                .map(str::to_string),
            items,
            fields,
            allowed: self.allowed.iter().map(plain).collect(),
            pattern: self.pattern.clone(),
            default: self.default.as_ref().map(plain),
            min: self.min,
            max: self.max,
            // `minLength 0` says nothing a call needs.
            min_length: length("minLength").filter(|&n| n > 0),
            max_length: length("maxLength"),
            example: self.example.as_ref().map(plain),
            description: self.description.clone().filter(|d| !d.is_empty()),
        }
    }

    /// The notation of this parameter in a capability (`default_in`, `whole_body` as for
    /// [`Param::facts`]): the author's own text when it says exactly these facts, else written
    /// canonically.
    pub fn notation(&self, default_in: ParamIn, whole_body: bool, schemas: &Schemas) -> String {
        let facts = self.facts(default_in, whole_body, schemas);
        match &self.compact {
            Some(text) if parse_compact(text).as_ref() == Ok(&facts) => text.clone(),
            _ => facts.write(),
        }
    }
}

/// The parameter of `params` that is the whole request body rather than a field of it: the
/// one body parameter, called `body` (as the OpenAPI import names a body that is not an object
/// of fields), of a shape a JSON object field rarely has there: an array, a map or
/// alternatives, or a scalar sent as a media type that is neither JSON nor a form. A string
/// `body` alone in JSON is a field (`{"body": "…"}`, as comments and messages take), far more
/// common than a bare JSON string body. The ai notation and the MCP binding both ask here;
/// `schemas` holds the named schemas a parameter's schema refers to.
pub fn whole_body(
    params: &[Param],
    content_type: Option<&str>,
    schemas: &Schemas,
) -> Option<usize> {
    let mut body = params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.location == ParamIn::Body);
    let (i, p) = body.next()?;
    if body.next().is_some() || p.name != "body" {
        return None;
    }
    let raw_media = content_type.is_some_and(|t| {
        !(t.contains("json") || t.contains("form-urlencoded") || t.starts_with("multipart/"))
    });
    let alternatives = p.schema.as_ref().is_some_and(|s| {
        schemas.keyword(s, "anyOf").is_some() || schemas.keyword(s, "oneOf").is_some()
    });
    let whole = match p.kind {
        ParamType::Array | ParamType::Object => true,
        _ => alternatives || raw_media,
    };
    whole.then_some(i)
}

impl Shape {
    /// The JSON Schema this shape says: its type, items and required properties.
    pub fn to_schema(&self) -> Value {
        let mut s = Map::new();
        s.insert("type".into(), self.kind.as_str().into());
        if let Some(items) = &self.items {
            s.insert("items".into(), items.to_schema());
        }
        if !self.fields.is_empty() {
            let props: Map<String, Value> = self
                .fields
                .iter()
                .map(|(n, f)| (n.clone(), f.to_schema()))
                .collect();
            s.insert("properties".into(), Value::Object(props));
            let names: Vec<Value> = self.fields.iter().map(|(n, _)| n.as_str().into()).collect();
            s.insert("required".into(), Value::Array(names));
        }
        if let Some(format) = &self.format {
            s.insert("format".into(), format.as_str().into());
        }
        for (key, bound) in [("minimum", self.min), ("maximum", self.max)] {
            if let Some(n) = bound {
                s.insert(key.into(), json_number(n));
            }
        }
        if !self.values.is_empty() {
            let values = self
                .values
                .iter()
                .map(|v| typed_value(self.kind, v.clone()));
            s.insert("enum".into(), values.collect());
        }
        Value::Object(s)
    }

    /// Whether it says more than a type.
    pub fn is_structured(&self) -> bool {
        self.items.is_some()
            || !self.fields.is_empty()
            || self.format.is_some()
            || self.min.is_some()
            || self.max.is_some()
            || !self.values.is_empty()
    }
}

impl Compact {
    /// The JSON Schema keywords of `format`, `items` and `fields` that a [`Param`]'s own fields
    /// cannot hold (its `schema`), when there are any.
    pub fn schema_keywords(&self) -> Option<Value> {
        let mut s = Map::new();
        if let Some(f) = &self.format {
            s.insert("format".into(), f.as_str().into());
        }
        if let Some(n) = self.min_length {
            s.insert("minLength".into(), n.into());
        }
        if let Some(n) = self.max_length {
            s.insert("maxLength".into(), n.into());
        }
        if let Some(items) = self.items.as_ref().filter(|i| i.is_structured()) {
            s.insert("items".into(), items.to_schema());
        }
        let object = Shape {
            fields: self.fields.clone(),
            ..Shape::of(ParamType::Object)
        };
        if !self.fields.is_empty()
            && let Value::Object(shape) = object.to_schema()
        {
            for key in ["properties", "required"] {
                if let Some(v) = shape.get(key) {
                    s.insert(key.into(), v.clone());
                }
            }
        }
        (!s.is_empty()).then_some(Value::Object(s))
    }
}

/// A type name with its article: `an integer`, `a string`, as messages name ADP's types too.
pub fn with_article(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'i', 'o']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {type_name}")
}

/// A value as it reads in compact notation: strings bare, everything else as JSON.
pub fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value of the notation as the JSON value of its type: `5` for an integer, `true` for a
/// boolean, else the text.
pub(crate) fn typed_value(kind: ParamType, text: String) -> Value {
    let parsed = match kind {
        ParamType::Integer => text.parse::<i64>().ok().map(Value::from),
        ParamType::Number => text
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number)),
        ParamType::Boolean => text.parse::<bool>().ok().map(Value::Bool),
        _ => None,
    };
    parsed.unwrap_or(Value::String(text))
}

/// A bound as people write it: `10`, not `10.0`.
pub fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notation_reads_through_named_schemas_and_ends_on_cycles() {
        let named = |name: &str, v: Value| (name.to_string(), std::sync::Arc::new(v));
        let store = Schemas::new([
            named(
                "Book",
                serde_json::json!({"type": "object", "required": ["id", "tags"], "properties": {
                    "id": {"$ref": "#/schemas/Id"},
                    "tags": {"type": "array", "items": {"$ref": "#/schemas/Tag"}},
                }}),
            ),
            named("Id", serde_json::json!({"type": "integer"})),
            named(
                "Tag",
                serde_json::json!({"type": "string", "enum": ["new", "old"]}),
            ),
            named(
                "Loop",
                serde_json::json!({"anyOf": [{"$ref": "#/schemas/Loop"}]}),
            ),
        ]);
        let mut p = Param::plain("book", ParamType::Object, true, ParamIn::Body);
        p.schema = Some(serde_json::json!({"$ref": "#/schemas/Book"}));
        let text = p.notation(ParamIn::Body, false, &store);
        assert_eq!(
            text,
            "object, required, fields {id: integer, tags: array items string new|old}"
        );
        assert_eq!(
            p.notation(ParamIn::Body, false, &Schemas::default()),
            "object, required"
        );
        // One schema or `null` reads as that schema.
        p.schema =
            Some(serde_json::json!({"anyOf": [{"type": "null"}, {"$ref": "#/schemas/Book"}]}));
        assert_eq!(
            p.notation(ParamIn::Body, false, &store),
            "object, required, fields {id: integer, tags: array items string new|old}"
        );
        // Alternatives that only lead back to themselves name no type: the field is a string.
        p.schema = Some(
            serde_json::json!({"required": ["x"], "properties": {"x": {"$ref": "#/schemas/Loop"}}}),
        );
        assert_eq!(
            p.notation(ParamIn::Body, false, &store),
            "object, required, fields {x: string}"
        );
    }

    #[test]
    fn whole_bounds_are_integers() {
        assert_eq!(json_number(1.0), Value::from(1));
        assert_eq!(json_number(-3.0), Value::from(-3));
        assert_eq!(json_number(0.5).to_string(), "0.5");
        assert_eq!(json_number(f64::NAN), Value::Null);
    }

    /// A nested field's format is said where it narrows the values (a UUID), not where it only
    /// sizes a number, and reads back.
    #[test]
    fn nested_fields_say_their_formats() {
        let mut p = Param::plain("owner", ParamType::Object, true, ParamIn::Body);
        p.schema = Some(
            serde_json::json!({"type": "object", "required": ["id", "n", "at"],
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "n": {"type": "integer", "format": "int64"},
                "at": {"type": "string", "format": "date time", "enum": ["a", "format b"]},
            }}),
        );
        let text = p.notation(ParamIn::Body, false, &Schemas::default());
        assert_eq!(
            text,
            r#"object, required, fields {id: string format uuid, n: integer, at: string format "date time" a|"format b"}"#
        );
        let back = parse_compact(&text).unwrap();
        assert_eq!(back.fields[0].1.format.as_deref(), Some("uuid"));
        assert_eq!(back.fields[2].1.format.as_deref(), Some("date time"));
        assert_eq!(back.fields[2].1.values, ["a", "format b"]);
        // And their bounds: an integer's open ones as the integers inside them.
        p.schema = Some(
            serde_json::json!({"type": "object", "required": ["size", "ratio", "page"],
            "properties": {
                "size": {"type": "integer", "minimum": 4398046511104_u64},
                "ratio": {"type": "number", "minimum": 0.5, "exclusiveMaximum": 2},
                "page": {"type": "integer", "exclusiveMinimum": 0.5, "maximum": 9.5},
            }}),
        );
        let text = p.notation(ParamIn::Body, false, &Schemas::default());
        assert_eq!(
            text,
            "object, required, fields {size: integer min 4398046511104, ratio: number min 0.5, page: integer min 1 max 9}"
        );
        let back = parse_compact(&text).unwrap();
        assert_eq!(back.fields[0].1.min, Some(4398046511104.0));
        assert_eq!(back.fields[2].1.max, Some(9.0));
        // Both kinds of bound on an integer: the tighter; a number's open bound is left out,
        // as OpenAPI 3.0's `exclusiveMinimum: true` makes its `minimum` one.
        p.schema = Some(
            serde_json::json!({"type": "object", "required": ["a", "b", "c"],
            "properties": {
                "a": {"type": "integer", "minimum": 10, "exclusiveMinimum": 0},
                "b": {"type": "number", "minimum": 1, "exclusiveMaximum": 5},
                "c": {"type": "number", "minimum": 1, "exclusiveMinimum": true},
            }}),
        );
        assert_eq!(
            p.notation(ParamIn::Body, false, &Schemas::default()),
            "object, required, fields {a: integer min 10, b: number min 1, c: number}"
        );
        // Only a number has bounds, and they are numbers in the schema they make.
        assert!(parse_compact("object, required, fields {s: string min 5}").is_err());
        let c = parse_compact("object, required, fields {n: number min 0.5 max 10}").unwrap();
        let shape = Shape {
            fields: c.fields,
            ..Shape::of(ParamType::Object)
        };
        assert_eq!(
            shape.to_schema()["properties"]["n"],
            serde_json::json!({"type": "number", "minimum": 0.5, "maximum": 10})
        );
    }

    #[test]
    fn reads_the_drafts_examples() {
        let c = parse_compact("integer, optional, default 10, max 50").unwrap();
        assert_eq!(c.kind, Some(ParamType::Integer));
        assert!(!c.required);
        assert_eq!(c.default.as_deref(), Some("10"));
        assert_eq!(c.max, Some(50.0));
        assert_eq!(c.description, None);

        let c =
            parse_compact("string, optional -- price_asc|price_desc|relevance, default relevance")
                .unwrap();
        assert_eq!(c.allowed, ["price_asc", "price_desc", "relevance"]);
        assert_eq!(c.default.as_deref(), Some("relevance"));
        assert_eq!(c.description, None);

        let c = parse_compact("string, optional -- default sort order").unwrap();
        assert_eq!(
            (c.default, c.description.as_deref()),
            (None, Some("default sort order"))
        );

        let c = parse_compact("string, required -- search keyword").unwrap();
        assert!(c.required);
        assert_eq!(c.description.as_deref(), Some("search keyword"));

        let c =
            parse_compact("string, required \u{2014} product ID, as returned by search").unwrap();
        assert_eq!(
            c.description.as_deref(),
            Some("product ID, as returned by search")
        );
    }

    #[test]
    fn refuses_what_is_not_the_grammar() {
        for (text, why) in [
            ("str, required", "not a parameter type"),
            ("string", "expected `required` or `optional`"),
            ("string, maybe", "found `maybe`"),
            ("integer, optional, max lots", "takes a number"),
            ("integer, optional, at most 5", "not a constraint"),
        ] {
            let err = parse_compact(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn a_nullable_parameter_and_its_keywords_complete_the_schema() {
        let mut p = Param {
            name: "unit".into(),
            kind: ParamType::String,
            required: false,
            location: ParamIn::Query,
            description: None,
            default: None,
            allowed: vec!["metric".into()],
            min: None,
            max: None,
            pattern: None,
            example: None,
            items: None,
            nullable: true,
            schema: Some(serde_json::json!({"format": "unit"})),
            compact: None,
            wire_name: None,
        };
        let mut s = Map::new();
        s.insert("type".into(), "string".into());
        s.insert("enum".into(), serde_json::json!(["metric"]));
        p.extend_schema(&mut s, &Schemas::default());
        assert_eq!(
            Value::Object(s),
            serde_json::json!({"type": ["string", "null"], "enum": ["metric", null], "format": "unit"})
        );
        // Alternatives with no one type replace the rendered type.
        p.nullable = false;
        p.schema = Some(serde_json::json!({"anyOf": [{"type": "string"}, {}]}));
        let mut s = Map::new();
        s.insert("type".into(), "string".into());
        p.extend_schema(&mut s, &Schemas::default());
        assert_eq!(
            Value::Object(s),
            serde_json::json!({"anyOf": [{"type": "string"}, {}]})
        );
        // So do those of a named schema the parameter refers to.
        let store = Schemas::new([(
            "Ssl".to_string(),
            std::sync::Arc::new(
                serde_json::json!({"oneOf": [{"type": "string"}, {"type": "number"}]}),
            ),
        )]);
        p.schema = Some(serde_json::json!({"$ref": "#/schemas/Ssl"}));
        let mut s = Map::new();
        s.insert("type".into(), "string".into());
        p.extend_schema(&mut s, &store);
        assert_eq!(
            Value::Object(s),
            serde_json::json!({"$ref": "#/schemas/Ssl"})
        );
    }

    #[test]
    fn renders_canonically_when_the_author_gave_a_table() {
        let p = Param {
            name: "limit".into(),
            kind: ParamType::Integer,
            required: false,
            location: ParamIn::Query,
            description: Some("page size".into()),
            default: Some(10.into()),
            allowed: vec![],
            min: Some(1.0),
            max: Some(50.0),
            pattern: None,
            example: None,
            items: None,
            nullable: false,
            schema: None,
            compact: None,
            wire_name: None,
        };
        assert_eq!(
            p.compact(),
            "integer, optional, default 10, min 1, max 50 -- page size"
        );
        let text = p.compact();
        let back = parse_compact(&text).unwrap();
        assert_eq!(
            (back.min, back.max, back.default.as_deref()),
            (Some(1.0), Some(50.0), Some("10"))
        );
    }
}

/// The notation read back: every string the writer makes, from any facts or any parameter,
/// reads back to the same facts.
#[cfg(test)]
mod round_trip {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Text with everything the notation treats specially: separators, quotes, braces, `--`,
    /// the em dash, constraint words, spaces at the ends; and any string at all.
    fn text() -> impl Strategy<Value = String> {
        let special = prop::sample::select(vec![
            "a",
            "b c",
            ",",
            "|",
            "\"",
            "{",
            "}",
            ":",
            " ",
            "--",
            "\u{2014}",
            "-",
            "\\",
            "in ",
            "min 5",
            "body",
            "default ",
            "é",
            "漢字",
            "🙂",
            "\t",
            "\n",
            "x",
            "1",
            "\"q\"",
            "const ",
            "required",
            "format uuid",
        ]);
        prop_oneof![
            3 => prop::collection::vec(special, 0..5).prop_map(|v| v.concat()),
            1 => any::<String>(),
        ]
    }

    fn kind() -> impl Strategy<Value = ParamType> {
        prop::sample::select(vec![
            ParamType::String,
            ParamType::Integer,
            ParamType::Number,
            ParamType::Boolean,
            ParamType::Array,
            ParamType::Object,
        ])
    }

    /// A shape as the notation can say it: items on arrays, fields on objects, allowed values
    /// on scalars, two levels.
    fn shape() -> impl Strategy<Value = Shape> {
        let bound = || prop::option::of(prop_oneof![-1e9..1e9f64, -1e18..1e18f64]);
        let leaf = (
            kind(),
            prop::option::of(text()),
            (bound(), bound()),
            prop::collection::vec(text(), 0..4),
        )
            .prop_map(|(kind, format, (min, max), values)| {
                let scalar = !matches!(kind, ParamType::Array | ParamType::Object);
                let numeric = matches!(kind, ParamType::Integer | ParamType::Number);
                Shape {
                    format: format.filter(|_| scalar),
                    min: min.filter(|_| numeric),
                    max: max.filter(|_| numeric),
                    values: if scalar { values } else { Vec::new() },
                    ..Shape::of(kind)
                }
            });
        leaf.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|i| Shape {
                    items: Some(Box::new(i)),
                    ..Shape::of(ParamType::Array)
                }),
                fields(inner).prop_map(|fields| Shape {
                    fields,
                    ..Shape::of(ParamType::Object)
                }),
            ]
        })
    }

    /// Required fields with distinct names.
    fn fields(inner: impl Strategy<Value = Shape>) -> impl Strategy<Value = Vec<(String, Shape)>> {
        prop::collection::vec((text(), inner), 0..3).prop_map(|mut v| {
            let mut seen = Vec::new();
            v.retain(|(n, _)| {
                let new = !seen.contains(n);
                seen.push(n.clone());
                new
            });
            v
        })
    }

    fn bound() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            (-1_000_000i64..1_000_000).prop_map(|n| Some(n as f64)),
            (-1e6f64..1e6).prop_map(Some),
        ]
    }

    prop_compose! {
        fn facts()(
            kind in kind(),
            required in any::<bool>(),
            location in prop::option::of(prop::sample::select(PLACES.to_vec())),
            wire_name in prop::option::of(text()),
            whole_body in any::<bool>(),
            format in prop::option::of(text()),
            items in prop::option::of(shape()),
            fields in fields(shape()),
            allowed in prop::collection::vec(text(), 0..4),
            pattern in prop::option::of(text()),
            default in prop::option::of(text()),
            min in bound(),
            max in bound(),
            min_length in prop::option::of(0u64..100_000),
            max_length in prop::option::of(0u64..100_000),
            example in prop::option::of(text()),
            description in prop::option::of(text()),
        ) -> Compact {
            Compact {
                kind: Some(kind),
                required,
                location: location.map(str::to_string),
                wire_name,
                whole_body,
                format,
                items,
                fields,
                allowed,
                pattern,
                default,
                min,
                max,
                min_length,
                max_length,
                example,
                description,
            }
        }
    }

    fn value(kind: ParamType) -> BoxedStrategy<Value> {
        match kind {
            ParamType::Integer => any::<i64>().prop_map(Value::from).boxed(),
            ParamType::Number => (-1e9f64..1e9).prop_map(|n| json!(n)).boxed(),
            ParamType::Boolean => any::<bool>().prop_map(Value::from).boxed(),
            ParamType::Array => prop::collection::vec(text(), 0..3)
                .prop_map(|v| json!(v))
                .boxed(),
            ParamType::Object => text().prop_map(|t| json!({ t: 1 })).boxed(),
            ParamType::String => text().prop_map(Value::from).boxed(),
        }
    }

    prop_compose! {
        /// A model parameter as the import or a service.toml table makes it.
        fn param()(kind in kind())(
            kind in Just(kind),
            name in "[a-z_]{1,8}",
            required in any::<bool>(),
            location in prop::sample::select(vec![ParamIn::Path, ParamIn::Query, ParamIn::Header, ParamIn::Body]),
            description in prop::option::of(text()),
            default in prop::option::of(value(kind)),
            allowed in prop::collection::vec(value(kind), 0..4),
            min in bound(),
            max in bound(),
            pattern in prop::option::of(text()),
            example in prop::option::of(value(kind)),
            items in prop::option::of(shape()),
            fields in fields(shape()),
            format in prop::option::of(text()),
            wire_name in prop::option::of("[a-z_]{1,8}"),
        ) -> Param {
            let mut schema = Map::new();
            if let Some(f) = format {
                schema.insert("format".into(), f.into());
            }
            let items = (kind == ParamType::Array).then_some(items).flatten();
            if let Some(i) = items.as_ref().filter(|i| i.is_structured()) {
                schema.insert("items".into(), i.to_schema());
            }
            if kind == ParamType::Object && !fields.is_empty()
                && let Value::Object(o) = (Shape { fields, ..Shape::of(kind) }).to_schema()
            {
                schema.extend(o.into_iter().filter(|(k, _)| k != "type"));
            }
            Param {
                name,
                kind,
                required,
                location,
                description,
                default,
                allowed,
                min,
                max,
                pattern,
                example,
                items: items.map(|i| i.kind),
                nullable: false,
                schema: (!schema.is_empty()).then_some(Value::Object(schema)),
                compact: None,
                wire_name,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_facts_read_back_as_written(facts in facts()) {
            let text = facts.write();
            prop_assert_eq!(parse_compact(&text), Ok(facts), "{}", text);
        }

        #[test]
        fn any_parameter_reads_back_to_its_facts(
            p in param(),
            default_in in prop::sample::select(vec![ParamIn::Path, ParamIn::Query, ParamIn::Body]),
            whole in any::<bool>(),
        ) {
            let facts = p.facts(default_in, whole, &Schemas::default());
            let text = p.notation(default_in, whole, &Schemas::default());
            prop_assert_eq!(parse_compact(&text), Ok(facts), "{}", text);
        }
    }

    #[test]
    fn the_examples_of_the_conventions_are_written_as_documented() {
        let mut p = Param {
            name: "auditClientIp".into(),
            kind: ParamType::String,
            required: true,
            location: ParamIn::Query,
            description: Some("The client IP".into()),
            default: None,
            allowed: vec![],
            min: None,
            max: None,
            pattern: None,
            example: None,
            items: None,
            nullable: false,
            schema: Some(json!({"format": "ipv4"})),
            compact: None,
            wire_name: None,
        };
        assert_eq!(
            p.notation(
                ParamIn::default_for(Method::Delete, false),
                false,
                &Schemas::default()
            ),
            "string, required, format ipv4 -- The client IP"
        );
        assert_eq!(
            p.notation(
                ParamIn::default_for(Method::Post, false),
                false,
                &Schemas::default()
            ),
            "string, required, in query, format ipv4 -- The client IP"
        );
        p.kind = ParamType::Array;
        p.items = Some(ParamType::Integer);
        p.schema = None;
        p.description = None;
        p.location = ParamIn::Body;
        assert_eq!(
            p.notation(ParamIn::Body, false, &Schemas::default()),
            "array, required, items integer"
        );
        p.kind = ParamType::Object;
        p.items = None;
        p.schema = Some(json!({
            "properties": {"lat": {"type": "number"}, "lng": {"type": ["number", "null"]}},
            "required": ["lat", "lng"]
        }));
        assert_eq!(
            p.notation(ParamIn::Body, false, &Schemas::default()),
            "object, required, fields {lat: number, lng: number}"
        );
        p.kind = ParamType::String;
        p.schema = None;
        p.allowed = vec![json!("a, b"), json!("c|d"), json!("plain one")];
        p.default = Some(json!("x, y"));
        p.wire_name = Some("id".into());
        assert_eq!(
            p.notation(ParamIn::Query, false, &Schemas::default()),
            r#"string, required, in body, name id, "a, b"|"c|d"|plain one, default "x, y""#
        );
        p.allowed = vec![json!("only")];
        p.default = None;
        p.wire_name = None;
        p.location = ParamIn::Header;
        assert_eq!(
            p.notation(ParamIn::Body, false, &Schemas::default()),
            "string, required, in header, const only"
        );
    }

    #[test]
    fn a_strings_length_bounds_are_stated_and_read_back() {
        let p = Param {
            schema: Some(json!({"minLength": 12, "maxLength": 36})),
            ..bare("suiteDefinitionId", ParamType::String, ParamIn::Path)
        };
        let text = p.notation(ParamIn::Path, false, &Schemas::default());
        assert_eq!(text, "string, required, minLength 12, maxLength 36");
        let back = parse_compact(&text).unwrap();
        assert_eq!((back.min_length, back.max_length), (Some(12), Some(36)));
        assert_eq!(
            back.schema_keywords(),
            Some(json!({"minLength": 12, "maxLength": 36}))
        );
        assert!(parse_compact("string, required, minLength 1.5").is_err());
    }

    #[test]
    fn a_description_that_reads_as_constraints_is_quoted() {
        let c = Compact {
            kind: Some(ParamType::String),
            description: Some("max 5".into()),
            ..Compact::default()
        };
        assert_eq!(c.write(), r#"string, optional -- "max 5""#);
        assert_eq!(parse_compact(&c.write()), Ok(c));
    }

    /// A required parameter with nothing but its name, type and place.
    fn bare(name: &str, kind: ParamType, location: ParamIn) -> Param {
        Param::plain(name, kind, true, location)
    }

    #[test]
    fn the_whole_body_is_the_one_structured_or_raw_body_called_body() {
        let p = |name: &str, kind: ParamType| bare(name, kind, ParamIn::Body);
        let none = Schemas::default();
        // A map or alternatives: what the importer calls `body` when it is not an object of fields.
        assert_eq!(
            whole_body(&[p("body", ParamType::Object)], None, &none),
            Some(0)
        );
        let alternatives = Param {
            schema: Some(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})),
            ..p("body", ParamType::String)
        };
        assert_eq!(whole_body(&[alternatives], None, &none), Some(0));
        assert_eq!(
            whole_body(&[p("body", ParamType::Array)], None, &none),
            Some(0)
        );
        assert_eq!(
            whole_body(&[p("body", ParamType::String)], Some("text/plain"), &none),
            Some(0)
        );
        // GitHub's comments take `{"body": "…"}`: a JSON field called body.
        assert_eq!(
            whole_body(&[p("body", ParamType::String)], None, &none),
            None
        );
        assert_eq!(
            whole_body(
                &[p("body", ParamType::Array), p("other", ParamType::String)],
                None,
                &none
            ),
            None
        );
        assert_eq!(
            whole_body(&[p("items", ParamType::Array)], None, &none),
            None
        );
    }
}
