//! Legal OpenAPI input builds every target. Small OpenAPI documents shaped like the corpus
//! documents that strict lowering would refuse (verb path segments, long titles, Swagger 2.0
//! `type: file` responses, `required` names without properties, body fields and headers named
//! like a path placeholder, arrays of arrays) are imported through `wellgen::pipeline::load`,
//! built for every target, and must come out without errors, with the warning that says what
//! was derived, and with documents that pass the targets' own checks.

use serde_json::Value;
use wellgen::diag::{Code, Diagnostic, Diagnostics, Severity};
use wellgen::emit::{
    Artifact, Target,
    targets::{adp, agis},
};
use wellgen::model::Service;

struct Built {
    service: Service,
    diags: Diagnostics,
    artifacts: Vec<Artifact>,
}

impl Built {
    fn json(&self, path: &str) -> Value {
        let a = self
            .artifacts
            .iter()
            .find(|a| a.path == path)
            .unwrap_or_else(|| panic!("{path} was not generated"));
        serde_json::from_slice(&a.body).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn warnings(&self, words: &str) -> Vec<&Diagnostic> {
        self.said(Severity::Warning, words)
    }

    /// The import's rewrites that lose nothing are notes (`N-import-adjusted`), not warnings.
    fn adjustments(&self, words: &str) -> Vec<&Diagnostic> {
        let notes = self.said(Severity::Note, words);
        assert!(notes.iter().all(|d| d.code == Code::ImportAdjusted));
        assert!(self.warnings(words).is_empty(), "{words}: a warning too");
        notes
    }

    fn said(&self, severity: Severity, words: &str) -> Vec<&Diagnostic> {
        self.diags
            .iter()
            .filter(|d| d.severity == severity && d.message.contains(words))
            .collect()
    }

    fn param<'a>(&'a self, id: &str, name: &str) -> Option<&'a wellgen::model::Param> {
        let c = self.service.capabilities.iter().find(|c| c.id == id);
        let c = c.unwrap_or_else(|| {
            let ids: Vec<&str> = self
                .service
                .capabilities
                .iter()
                .map(|c| c.id.as_str())
                .collect();
            panic!("{id} not among {ids:?}")
        });
        c.params.iter().find(|p| p.name == name)
    }

    /// The AGIS endpoints as (method, path, HTTP path).
    fn agis_paths(&self) -> Vec<(String, String)> {
        let doc = self.json(agis::JSON_PATH);
        doc["endpoints"]
            .as_array()
            .expect("endpoints")
            .iter()
            .map(|e| {
                (
                    e["method"].as_str().unwrap().to_string(),
                    e["path"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

/// Imports `text` (an OpenAPI document in YAML) and builds every target; the import, the
/// model and every back end must report no error, and the AGIS and ADP documents must pass
/// their checkers.
fn build(text: &str) -> Built {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openapi.yaml");
    std::fs::write(&path, text).unwrap();
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(&path, &mut diags);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let service = service.expect("imports");
    let artifacts = wellgen::pipeline::emit(&service, &Target::ALL, &mut diags);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let built = Built {
        service,
        diags,
        artifacts,
    };
    let violations = crate::support_agis::validate(&built.json(agis::JSON_PATH));
    assert!(violations.is_empty(), "{violations:#?}");
    for a in &built.artifacts {
        if a.path.starts_with(adp::DETAIL_PREFIX) {
            let problems = crate::support_adp::check_detail(&built.json(&a.path));
            assert!(problems.is_empty(), "{}: {problems:#?}", a.path);
        }
    }
    built
}

const HEAD: &str = "openapi: 3.0.3
info:
  title: TITLE
  description: DESCRIPTION
  version: '1'
  contact: {email: api@example.com}
  x-logo: {url: 'https://example.com/logo.png'}
servers: [{url: 'https://api.example.com'}]
paths:
";

fn document(title: &str, description: &str, paths: &str) -> String {
    HEAD.replace("TITLE", title)
        .replace("DESCRIPTION", description)
        + paths
}

/// One operation without parameters: `path`, `method`, `id`.
fn op(path: &str, method: &str, id: &str) -> String {
    format!(
        "  {path}:\n    {method}:\n      operationId: {id}\n      summary: Works on {id}\n      \
         responses: {{'200': {{description: ok}}}}\n"
    )
}

const VERB_PATHS: [(&str, &str, &str); 18] = [
    ("/search/users", "get", "searchUsers"),
    ("/users/{id}/cancel", "post", "cancelUser"),
    ("/v1/pets/find-by-status", "get", "findPetsByStatus"),
    ("/v1/pets/findByTags", "get", "findPetsByTags"),
    ("/containers/create", "post", "createContainer"),
    ("/containers/{id}/update", "post", "updateContainer"),
    ("/images/{name}/get", "get", "getImage"),
    (
        "/fulfillment_policy/get_by_policy_name",
        "get",
        "getFulfillmentPolicyByName",
    ),
    (
        "/__admin/requests/remove-by-metadata",
        "post",
        "removeRequestsByMetadata",
    ),
    ("/getcurrencyrate", "get", "get_currency_rate"),
    ("/cancel", "post", "cancel"),
    ("/orders/cancel", "delete", "cancelOrder"),
    ("/createTestCardRanges", "post", "createTestCardRanges"),
    ("/paypal/updateOrder", "post", "updateOrder"),
    ("/users/find", "get", "find"),
    ("/users/lookup", "get", "lookup"),
    ("/users/get", "get", "get"),
    ("/articles/search", "get", "search_articles"),
];

#[test]
fn derived_agis_paths_never_break_the_path_rules() {
    let paths: String = VERB_PATHS.iter().map(|(p, m, id)| op(p, m, id)).collect();
    let b = build(&document("Verbs", "Paths with verbs in them.", &paths));
    let endpoints = b.agis_paths();
    assert_eq!(endpoints.len(), VERB_PATHS.len());
    let mut seen = std::collections::BTreeSet::new();
    for (method, path) in &endpoints {
        // `agis::validate` ran in `build`; say it again here in the words of §5(b) and §5(e).
        let words: Vec<&str> = path
            .split(['/', '-'])
            .filter(|w| !w.is_empty() && !w.starts_with('{'))
            .collect();
        assert!(!words.is_empty(), "{method} {path}");
        for w in words {
            assert_ne!(w, method.to_ascii_lowercase(), "{method} {path}");
            for verb in [
                "get", "find", "create", "update", "cancel", "remove", "lookup",
            ] {
                assert_ne!(w, verb, "{method} {path}");
            }
        }
        assert!(seen.insert((method, path)), "{method} {path} twice");
    }
    // The nouns of the HTTP path are kept: the entity is still the one the API names.
    assert!(
        endpoints.iter().any(|(_, p)| p == "/users"),
        "{endpoints:#?}"
    );
    assert!(endpoints.iter().any(|(_, p)| p.starts_with("/pets")));
    assert!(endpoints.iter().any(|(_, p)| p.starts_with("/containers")));
}

#[test]
fn an_author_written_verb_path_is_still_an_error() {
    let text = "[service]
name = \"Verbs\"
description = \"Paths with verbs in them.\"
base_url = \"https://api.example.com\"

[[capabilities]]
id = \"cancel_order\"
description = \"Cancels an order\"
method = \"POST\"
path = \"/orders/{id}/cancel\"
semantic = { path = \"/orders/{id}/cancel\" }
";
    let raw = wellgen::source::parse_service_toml(text).unwrap();
    let mut diags = Diagnostics::default();
    let service = wellgen::model::lower(raw, &mut diags).expect("lowers");
    wellgen::pipeline::emit(&service, &[Target::Agis], &mut diags);
    assert!(
        diags.iter().any(|d| d.is_error()
            && d.message.contains("`cancel` ")
            && (d.message.contains("§5(b)") || d.message.contains("§5(e)"))),
        "{:#?}",
        diags.iter().collect::<Vec<_>>()
    );
}

#[test]
fn long_imported_titles_are_shortened_for_ai_plugin_with_a_note() {
    let title = "The Extremely Long Service Title";
    let description = "word ".repeat(40);
    let b = build(&document(
        title,
        description.trim(),
        &op("/items", "get", "listItems"),
    ));
    let plugin = b.json("/.well-known/ai-plugin.json");
    let name = plugin["name_for_human"].as_str().unwrap();
    assert!(name.chars().count() <= 20 && name.ends_with('…'), "{name}");
    assert!(title.starts_with(name.trim_end_matches('…')));
    // A value wellgen derived to fit the manifest: a note, not a warning.
    assert!(b.warnings("name_for_human").is_empty());
    let warned = b.said(Severity::Note, "name_for_human");
    assert_eq!(warned.len(), 1, "{:#?}", b.diags.iter().collect::<Vec<_>>());
    assert_eq!(warned[0].code, Code::PluginShortened);
    assert!(warned[0].message.contains(name));
    assert!(
        warned[0]
            .help
            .as_deref()
            .unwrap()
            .contains("[plugin] name_for_human")
    );
    let text = plugin["description_for_human"].as_str().unwrap();
    assert!(text.chars().count() <= 100, "{text}");
    assert_eq!(b.said(Severity::Note, "description_for_human").len(), 1);
}

#[test]
fn swagger_file_responses_and_stray_required_names_are_made_json_schema_that_can_be_met() {
    let text = "swagger: '2.0'
info: {title: Files, description: Downloads., version: '1', contact: {email: a@example.com}}
host: api.example.com
schemes: [https]
paths:
  /files/{id}:
    get:
      operationId: downloadFile
      summary: Downloads a file
      parameters: [{name: id, in: path, required: true, type: string}]
      responses:
        '200': {description: the file, schema: {type: file}}
  /reports:
    get:
      operationId: listReports
      summary: Lists reports
      responses:
        '200':
          description: reports
          schema:
            type: object
            required: [items, total, nextPage]
            properties:
              items: {type: array, items: {type: object, required: [id, missing], properties: {id: {type: string}}}}
              total: {type: integer}
  /open:
    get:
      operationId: listOpen
      summary: Lists open things
      responses:
        '200':
          description: open
          schema:
            type: object
            additionalProperties: true
            required: [id, extra]
            properties: {id: {type: string}}
";
    let b = build(text);
    let cap = |id: &str| {
        b.service
            .capabilities
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| {
                let ids: Vec<&str> = b
                    .service
                    .capabilities
                    .iter()
                    .map(|c| c.id.as_str())
                    .collect();
                panic!("{id} not among {ids:?}")
            })
    };
    let file = cap("download_file").output_schema.clone().unwrap();
    assert_eq!(file["type"], "string");
    assert_eq!(file["format"], "binary");
    // A `required` name no property describes gets one that takes any value, as in a
    // request (one rule for every schema the import makes): the schema can be met, and says
    // the field is there.
    let reports = cap("list_reports").output_schema.clone().unwrap();
    assert_eq!(
        reports["required"],
        serde_json::json!(["items", "total", "nextPage"])
    );
    assert_eq!(reports["properties"]["nextPage"], serde_json::json!({}));
    let item = &reports["properties"]["items"]["items"];
    assert_eq!(item["required"], serde_json::json!(["id", "missing"]));
    assert_eq!(item["properties"]["missing"], serde_json::json!({}));
    // Other properties allowed: the name is opened all the same.
    let open = cap("list_open").output_schema.clone().unwrap();
    assert_eq!(open["required"], serde_json::json!(["id", "extra"]));
    assert_eq!(open["properties"]["extra"], serde_json::json!({}));
    assert_eq!(b.adjustments("`type: file`").len(), 1);
    // A note, not a warning: nothing is left out.
    assert!(b.warnings("`required` names").is_empty());
    let opened = b.adjustments("`required` names");
    assert_eq!(opened.len(), 2);
    assert!(
        opened[0].message.contains("take any value"),
        "{:?}",
        opened[0]
    );
    assert!(
        matches!(opened[0].origin.as_deref(), Some(wellgen::diag::Origin::Document(at)) if at.contains("#/paths/")),
        "{:?}",
        opened[0]
    );
}

#[test]
fn body_fields_and_headers_named_like_a_placeholder_give_way_to_the_path_parameter() {
    // Swagger 2.0: the body parameter is met before the path item's path parameter.
    let text = "swagger: '2.0'
info: {title: Users, description: Users., version: '1'}
host: api.example.com
schemes: [https]
paths:
  /users/{username}:
    parameters: [{name: username, in: path, required: true, type: string, description: Who}]
    put:
      operationId: updateUser
      summary: Updates a user
      parameters:
        - {name: username, in: header, type: string}
        - name: body
          in: body
          schema: {type: object, properties: {username: {type: string}, email: {type: string}}}
      responses: {'200': {description: ok}}
  /pets/{name}:
    post:
      operationId: renamePet
      summary: Renames a pet
      parameters:
        - {name: name, in: formData, type: string}
      responses: {'200': {description: ok}}
";
    let b = build(text);
    let user = b.param("update_user", "username").unwrap();
    assert_eq!(user.location, wellgen::model::ParamIn::Path);
    assert_eq!(user.description.as_deref(), Some("Who"));
    let body = b
        .param("update_user", "body_username")
        .expect("renamed body field");
    assert_eq!(body.location, wellgen::model::ParamIn::Body);
    // The request still carries the field under its own name.
    assert_eq!(body.wire_name.as_deref(), Some("username"));
    assert_eq!(body.wire(), "username");
    let email = b.param("update_user", "email").unwrap();
    assert_eq!((email.wire_name.as_deref(), email.wire()), (None, "email"));
    let pet = b.param("rename_pet", "name").unwrap();
    assert_eq!(pet.location, wellgen::model::ParamIn::Path);
    assert_eq!(pet.wire_name, None);
    let form = b.param("rename_pet", "body_name").unwrap();
    assert_eq!(form.wire(), "name");
    assert_eq!(
        b.warnings("header and query parameters named like a path placeholder")
            .len(),
        1
    );
    // One at each place, each with its place.
    let renamed = b.adjustments("body fields named like a path placeholder");
    assert_eq!(renamed.len(), 2);
    assert!(renamed.iter().all(|d| d.origin.is_some()), "{renamed:?}");
}

/// A request body's `required` name that no property describes is still sent: it is kept as a
/// required body parameter, with a warning naming it (response schemas drop such names).
#[test]
fn required_body_names_without_a_property_are_kept_and_named() {
    let text = document(
        "Notes",
        "Notes.",
        "  /notes:
    post:
      operationId: createNote
      summary: Creates a note
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              required: [text, ghost_field]
              properties:
                text: {type: string}
                tags:
                  type: object
                  required: [colour, shade]
                  properties: {colour: {type: string}}
      responses: {'201': {description: ok}}
",
    );
    let b = build(&text);
    let ghost = b
        .param("create_note", "ghost_field")
        .expect("the required name is a parameter");
    assert!(ghost.required);
    assert_eq!(ghost.location, wellgen::model::ParamIn::Body);
    assert!(b.param("create_note", "text").unwrap().required);
    // Inside a nested object too, the name keeps a property that takes any value.
    let tags = b.param("create_note", "tags").unwrap();
    let schema = tags.schema.as_ref().unwrap();
    assert_eq!(schema["properties"]["shade"], serde_json::json!({}));
    assert_eq!(schema["required"], serde_json::json!(["colour", "shade"]));
    // A note: nothing is left out.
    let said = b.adjustments("that no property of the schema describes");
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].message.contains("`ghost_field`") && said[0].message.contains("`shade`"),
        "{}",
        said[0].message
    );
}

/// An `Authorization` header parameter is what the call must send unless a security scheme of
/// the operation already says it (Swagger 2.0 APIs without `securityDefinitions` declare their
/// tokens this way).
#[test]
fn an_authorization_header_no_scheme_covers_stays_a_required_header() {
    let text = |security: &str| {
        format!(
            "swagger: '2.0'
info: {{title: Tokens, description: Tokens., version: '1', contact: {{email: a@example.com}}}}
host: api.example.com
schemes: [https]
{security}paths:
  /things:
    get:
      operationId: listThings
      summary: Lists things
      parameters:
        - {{name: Authorization, in: header, required: true, type: string, description: The session token}}
        - {{name: Accept, in: header, type: string}}
      responses: {{'200': {{description: ok}}}}
"
        )
    };
    let b = build(&text(""));
    let header = b
        .param("list_things", "Authorization")
        .expect("the header is kept");
    assert_eq!(header.location, wellgen::model::ParamIn::Header);
    assert!(header.required);
    assert_eq!(header.description.as_deref(), Some("The session token"));
    assert!(b.param("list_things", "Accept").is_none());
    // A scheme the operation requires that sends the Authorization header covers it.
    let b = build(&text(
        "securityDefinitions: {basic: {type: basic}}\nsecurity: [{basic: []}]\n",
    ));
    assert!(b.param("list_things", "Authorization").is_none());
    // A key in another header does not.
    let b = build(&text(
        "securityDefinitions: {key: {type: apiKey, in: header, name: X-Key}}\nsecurity: [{key: []}]\n",
    ));
    assert!(b.param("list_things", "Authorization").is_some());
}

#[test]
fn arrays_of_arrays_are_published_to_adp_as_json_text_with_a_warning() {
    let text = document(
        "Grid",
        "Grids.",
        "  /grids:
    post:
      operationId: createGrid
      summary: Creates a grid
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                cells:
                  type: array
                  description: Rows of cells
                  items: {type: array, items: {type: integer}}
                  example: [[1, 2], [3]]
      responses: {'200': {description: ok}}
",
    );
    let b = build(&text);
    let warned = b.warnings("no array of arrays");
    assert_eq!(warned.len(), 1);
    assert!(warned[0].field.as_deref().unwrap().ends_with("cells"));
    let detail = b
        .artifacts
        .iter()
        .find(|a| a.path.starts_with(adp::DETAIL_PREFIX))
        .map(|a| b.json(&a.path))
        .unwrap();
    let cells = detail["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "cells")
        .unwrap();
    assert_eq!(cells["type"], "string[]");
    // Each item of the example is the JSON text of an array.
    let items = cells["example"].as_array().unwrap();
    assert!(!items.is_empty());
    for item in items {
        let text = item.as_str().expect("a string item");
        let parsed: Value = serde_json::from_str(text).expect("JSON text");
        assert!(parsed.is_array(), "{text}");
    }
    let description = cells["description"].as_str().unwrap();
    assert!(description.starts_with("Rows of cells."), "{description}");
    assert!(description.contains("itself a JSON array"), "{description}");
}

#[test]
fn a_path_with_characters_a_url_cannot_carry_is_skipped_with_a_warning() {
    // DigitalOcean's `/<upload_url>` stands for a URL the API hands out, not a path.
    let paths =
        op("/<upload_url>", "put", "uploadBatchFile") + &op("/batches", "get", "listBatches");
    let b = build(&document("Batches", "Batch jobs.", &paths));
    let ids: Vec<&str> = b
        .service
        .capabilities
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["list_batches"]);
    let warned = b.warnings("operation skipped");
    assert_eq!(warned.len(), 1);
    assert!(warned[0].message.contains("`<`"), "{}", warned[0].message);
}

/// A request body declared as an object with no properties and no others allowed accepts only
/// `{}`: leaving it out loses nothing, so the import says it in a note (Stripe: 225 places).
#[test]
fn a_body_that_can_only_be_empty_is_left_out_with_a_note() {
    let empty = "  /v1/things/{id}/archive:\n    post:\n      operationId: archiveThing\n      \
                 summary: Archives a thing\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      \
                 requestBody:\n        content:\n          application/json:\n            \
                 schema: {type: object, properties: {}, additionalProperties: false}\n      \
                 responses: {'200': {description: ok}}\n";
    let b = build(&document("Things", "Things to archive.", empty));
    let notes = b.adjustments("request bodies declared as an object with no properties");
    assert_eq!(notes.len(), 1);
    assert!(
        matches!(notes[0].origin.as_deref(), Some(wellgen::diag::Origin::Document(at)) if at.ends_with("/schema")),
        "{:?}",
        notes[0]
    );
    let c = &b.service.capabilities[0];
    assert_eq!(
        c.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["id"]
    );
}
