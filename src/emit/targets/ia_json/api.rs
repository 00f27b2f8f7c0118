//! The `api` section: capabilities grouped by access, paths relative to `base_url`, parameters
//! split into `parameters` (path, query, header) and `body`.

use std::sync::Arc;

use foldhash::{HashMap, HashMapExt};
use indexmap::IndexMap;
use serde_json::Value;

use super::view::{Api, Endpoint, Group, Parameter, Response};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Access, Capability, Param, ParamIn, Service};
use crate::values::param::json_number;

pub fn api<'a>(service: &'a Service, diags: &mut Diagnostics) -> Api<'a> {
    let mut api = Api {
        base_url: service.base_url.as_str(),
        public: Group::new(),
        protected: Group::new(),
        user_required: Group::new(),
    };
    let mut inlined = Inlined::new();
    for c in &service.capabilities {
        let Some(path) = relative_path(service, c) else {
            diags.push(
                Diagnostic::new(Code::IajsonOutside, format!(
                    "`{}` is served outside `{}`: ia.json paths are relative to `api.base_url`, so it \
                     is left out of ia.json",
                    c.id, service.base_url
                ))
                .at(c.field("path"))
                .help("give it a path under service.base_url, or leave it to the other targets"),
            );
            continue;
        };
        let group = match c.access {
            Access::Public => &mut api.public,
            Access::Protected => &mut api.protected,
            Access::UserRequired => &mut api.user_required,
        };
        group.insert(
            c.id.as_str(),
            endpoint(service, c, path, &mut inlined, diags),
        );
    }
    if api.public.is_empty() && api.protected.is_empty() && api.user_required.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::IajsonNoEndpoint,
                "ia.json needs at least one endpoint under service.base_url (§4.3), and none is",
            )
            .at("service.base_url")
            .help("set base_url to the origin (or prefix) the capabilities are served under"),
        );
    }
    api
}

/// The capability's path relative to the base URL, `{param}` spelling. A capability on its
/// own host is kept only when its URL still falls under the base URL.
fn relative_path(service: &Service, c: &Capability) -> Option<String> {
    if c.host.is_none() {
        return Some(c.path.braces());
    }
    let url = c.url(&service.base_url);
    url.strip_prefix(service.base_url.as_str())
        .filter(|rest| rest.starts_with('/'))
        .map(str::to_owned)
}

/// Each output schema inlined once, by the schema the model holds (a response several
/// capabilities return is one `Arc`): the model outlives the map.
type Inlined = HashMap<*const Value, Arc<Value>>;

fn endpoint<'a>(
    service: &Service,
    c: &'a Capability,
    path: String,
    inlined: &mut Inlined,
    diags: &mut Diagnostics,
) -> Endpoint<'a> {
    let mut parameters = IndexMap::new();
    let mut body = IndexMap::new();
    for p in &c.params {
        if p.location == ParamIn::Body {
            if !matches!(c.method.as_str(), "POST" | "PUT" | "PATCH") {
                diags.push(
                    Diagnostic::new(Code::IajsonBodyMethod, format!(
                        "`{}` is a body field of a {} request; ia.json describes `body` for POST, PUT \
                         and PATCH only (§4.3.5)",
                        p.name,
                        c.method.as_str()
                    ))
                    .at(format!("{}.{}", c.field("params"), p.name))
                    .help("send it in the query (`in = \"query\"`) if the API accepts that"),
                );
            }
            body.insert(p.name.as_str(), parameter(p));
        } else {
            parameters.insert(p.name.as_str(), parameter(p));
        }
    }
    Endpoint {
        method: c.method.as_str(),
        path,
        description: &c.description,
        parameters,
        body,
        response: response(service, c, inlined),
        rate_limit: c.rate_limit.map(|r| r.to_string()),
        scopes: &c.scopes,
        deprecated: c.deprecated,
    }
}

/// A parameter object. ia.json has no location field: path parameters show in the path's
/// placeholders, and header parameters say so in their description so agents do not send them
/// as query parameters. Array item types and formats have no place in the object and are dropped.
pub fn parameter(p: &Param) -> Parameter<'_> {
    let description = match (p.location, &p.description) {
        (ParamIn::Header, Some(d)) => {
            Some(format!("{d} (sent as the `{}` request header)", p.name))
        }
        (ParamIn::Header, None) => Some(format!("Sent as the `{}` request header", p.name)),
        (_, d) => d.clone(),
    };
    Parameter {
        kind: p.kind.as_str(),
        required: p.required,
        description,
        default: p.default.as_ref(),
        example: p.example.as_ref(),
        allowed: &p.allowed,
        min: p.min.map(json_number),
        max: p.max.map(json_number),
        pattern: p.pattern.as_deref(),
    }
}

/// `response` is a free-form "response schema description" (§4.3.3): wellgen gathers what the
/// model knows — the compact `returns`, the JSON Schema, a successful example — under plain keys.
fn response<'a>(
    service: &Service,
    c: &'a Capability,
    inlined: &mut Inlined,
) -> Option<Response<'a>> {
    let example = c
        .example
        .as_ref()
        .filter(|e| (200..300).contains(&e.status))
        .and_then(|e| e.response.as_ref());
    let r = Response {
        description: c.returns.as_deref(),
        schema: c.output_schema.as_ref().map(|s| {
            let made = inlined.entry(Arc::as_ptr(s));
            Arc::clone(made.or_insert_with(|| service.schemas.inline_shared(s)))
        }),
        example,
    };
    (r.description.is_some() || r.schema.is_some() || r.example.is_some()).then_some(r)
}
