//! Every target wellgen emits, each described once by its [`Descriptor`]: the documents it
//! publishes (paths, media type, cache policy), the spec it follows and the targets it needs.
//! Everything that lists targets (the CLI's `--target` values, `wellgen targets`, the README
//! table, the API catalog and llms.txt links, the tests) iterates the descriptors.
//!
//! Each target runs in up to three steps. `lower` makes every check of its spec on the model
//! and derives what its documents need, reporting every diagnostic, and makes no bytes; the size
//! pass ([`Lowered::fit`]) makes the documents whose size decides what they hold (a large
//! import's budget, a draft's size limit), reporting what it left out; `render` writes the
//! documents and cannot fail. Every target lowers and fits whether or not the build writes, so
//! `check --target X` and `build --target X` report the same, and no document of an input with
//! errors is written.
//!
//! Adding a target: a module beside this one with its `DESCRIPTOR`, `Lowered`, `lower` and
//! `render`; one line in `targets!` and an arm in `Target::lower`, `Lowered::fit` (its size
//! pass, or none) and `Lowered::render` (the compiler asks for all three); a fixture
//! (ARCHITECTURE.md has the recipe).

pub mod a2a;
pub mod adp;
pub mod agent_skills;
pub mod agis;
pub mod ai;
pub mod ai_catalog;
pub mod ai_plugin;
pub mod api_catalog;
pub mod ia_json;
pub mod llms_txt;
pub mod mcp;
pub mod mcp_server_card;
pub mod oauth_resource;
pub mod openapi;
pub mod rfc002;

use std::sync::OnceLock;

use super::{Artifact, Build, Serving};
use crate::diag::Diagnostics;
use crate::emit::derive::agis::Derived;
use crate::model::Service;

/// What a target is, for everything that lists targets.
#[derive(Debug)]
pub struct Descriptor {
    /// The `--target` value.
    pub name: &'static str,
    /// Every document the target publishes, its primary one first.
    pub documents: &'static [Document],
    /// The exact spec version or draft followed.
    pub spec: &'static str,
    /// Where that spec stands.
    pub status: &'static str,
    /// `None`: every build publishes it unless told otherwise. Else how a build asks for it:
    /// a target whose spec its publisher has retired is left out unless asked for.
    pub opt_in: Option<&'static str>,
    /// Targets built along with this one, because its documents link to theirs.
    pub requires: &'static [Target],
}

impl Descriptor {
    /// Its family of documents (one per capability, skill or part), if it publishes one.
    pub fn family(&self) -> Option<&Document> {
        self.documents.iter().find(|d| d.family.is_some())
    }

    /// The single document in its family's folder: the family's index (the skills' index,
    /// `[source] split`'s index of `/ai`'s sub-services), if it has one.
    pub fn family_index(&self) -> Option<&Document> {
        let folder = self.family()?.path;
        self.documents
            .iter()
            .find(|d| d.family.is_none() && d.path.starts_with(folder))
    }
}

/// One document (or one family of documents) a target publishes.
#[derive(Debug)]
pub struct Document {
    /// URL path; for a family, the prefix that each capability's id completes.
    pub path: &'static str,
    pub serving: Serving,
    /// A family of files below `path`, one per capability or per skill: how each path goes
    /// on from `path`, as listings show it (`<id>`, `<name>/SKILL.md`).
    pub family: Option<&'static str>,
    /// A second URL for the same bytes as another document of the target (an alias or a
    /// twin) that nothing links to: `[build] skip` may leave it out.
    pub alias: bool,
    /// How the other documents (the API catalog, llms.txt) link to it; `None` for aliases,
    /// twins and families.
    pub link: Option<Link>,
    /// Whether a service has it written: most documents always are, some only when the service
    /// declares what they describe (an MCP server, an OAuth scheme). Exact for the documents
    /// others link to; for a family no one links to, whether the service may have it (a split
    /// `/ai` also depends on its size).
    pub written: fn(&Service) -> bool,
}

/// `Document::written` of the documents every build of their target writes.
fn always(_: &Service) -> bool {
    true
}

impl Document {
    /// A single document at `path`, linked to by no other.
    pub const fn at(path: &'static str, serving: Serving) -> Self {
        Self {
            path,
            serving,
            family: None,
            alias: false,
            link: None,
            written: always,
        }
    }

    /// A second URL for the bytes of the target's primary document, linked to by no other.
    pub const fn alias(path: &'static str, serving: Serving) -> Self {
        Self {
            path,
            serving,
            family: None,
            alias: true,
            link: None,
            written: always,
        }
    }

    /// A family of documents below `path`, one for each name (`rest` shows how its path goes on,
    /// as listings show it: `<id>`, `<part>.json`), linked to by no other.
    pub const fn family(path: &'static str, rest: &'static str, serving: Serving) -> Self {
        Self {
            path,
            serving,
            family: Some(rest),
            alias: false,
            link: None,
            written: always,
        }
    }

    /// The single document at `path`, as other documents link to it.
    pub const fn linked(path: &'static str, serving: Serving, link: Link) -> Self {
        Self {
            path,
            serving,
            family: None,
            alias: false,
            link: Some(link),
            written: always,
        }
    }

    /// This document, written only for the services `written` accepts.
    pub const fn when(mut self, written: fn(&Service) -> bool) -> Self {
        self.written = written;
        self
    }

    /// The Content-Type a host sends for this document: its own where wellgen sets the header
    /// (`_headers`, the worker, vercel.json, the server configs), else the type every host and
    /// `wellgen serve` give a `.json` file, which wellgen leaves them to set.
    pub fn served_content_type(&self) -> &'static str {
        let file = Artifact::document(self.display_path(), Vec::<u8>::new(), self.serving.clone());
        if !file.needs_content_type() && self.path.ends_with(".json") {
            "application/json"
        } else {
            self.serving.content_type
        }
    }

    /// The path as `wellgen targets` shows it: a family's with `<id>` (or `<name>/SKILL.md`).
    pub fn display_path(&self) -> String {
        match self.family {
            Some(rest) => format!("{}{rest}", self.path),
            None => self.path.to_string(),
        }
    }

    /// The path of the family member `name` (ADP's detail file of capability `name`); `None`
    /// for a single document.
    pub fn path_for(&self, name: &str) -> Option<String> {
        Some(format!("{}{name}{}", self.path, self.family_suffix()?))
    }

    /// What a family member's path ends with after its own name (`/SKILL.md`; nothing for
    /// `<id>`).
    pub fn family_suffix(&self) -> Option<&'static str> {
        self.family
            .map(|rest| rest.split_once('>').map_or("", |(_, suffix)| suffix))
    }
}

/// A document as another document links to it.
#[derive(Debug, Clone, Copy)]
pub struct Link {
    /// A short human title (a link name in /llms.txt, a `title` in the catalog).
    pub title: &'static str,
    /// What it is for, in one line.
    pub note: &'static str,
    /// The media type it is served as, without parameters.
    pub media_type: &'static str,
    /// Its RFC 8631 relation to the API in the catalog.
    pub relation: Relation,
    /// The media type the AI catalog (`/.well-known/ai-catalog.json`) lists it under, the one
    /// that names the kind of artifact; `None` leaves it out of the AI catalog.
    pub ai_catalog: Option<&'static str>,
}

/// RFC 8631 relations the catalog uses for the documents (RFC 9727 Appendix A.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// A machine-readable description of the API itself.
    ServiceDesc,
    /// Documentation primarily for human (here: language-model) readers.
    ServiceDoc,
    /// Further metadata about the API, for machines.
    ServiceMeta,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ServiceDesc => "service-desc",
            Self::ServiceDoc => "service-doc",
            Self::ServiceMeta => "service-meta",
        }
    }
}

/// A linked document and the target that writes it.
#[derive(Debug, Clone, Copy)]
pub struct Linked {
    pub target: Target,
    pub path: &'static str,
    pub link: Link,
}

/// The documents of the `built` targets that others link to, as `service` has them written:
/// descriptions of the API itself (`service-desc`) first, then the rest in target order.
pub fn linked(service: &Service, built: &[Target]) -> Vec<Linked> {
    let mut all: Vec<Linked> = Target::ALL
        .iter()
        .filter(|t| built.contains(t))
        .flat_map(|&target| {
            target.descriptor().documents.iter().filter_map(move |d| {
                Some(Linked {
                    target,
                    path: d.path,
                    link: d.link.filter(|_| (d.written)(service))?,
                })
            })
        })
        .collect();
    all.sort_by_key(|l| l.link.relation != Relation::ServiceDesc);
    all
}

/// A document answered at another document's URL when the request's query asks for it
/// (RFC-002's `/api/discovery?format=openapi` is the OpenAPI document). A static host serves
/// files by path alone, so a host rule routes it (`emit::hosts`), where the host has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query {
    /// The path of the document the query is asked of.
    pub path: &'static str,
    /// The query parameter and the value that asks for the other document.
    pub param: &'static str,
    pub value: &'static str,
    /// The path of the document that answers it.
    pub serves: &'static str,
}

impl Query {
    /// The URL path and query, as documents link it: `/api/discovery?format=openapi`.
    pub fn url(&self) -> String {
        format!("{}?{}={}", self.path, self.param, self.value)
    }
}

/// The URL documents link the OpenAPI description by (agents.json's `discovery.openapi`,
/// ai-plugin.json's `api.url`): RFC-002's query route ([`rfc002::QUERY`]) where this build
/// routes it, else the static file it is routed to.
pub fn openapi_link(service: &Service, build: &Build) -> String {
    let query = rfc002::QUERY;
    if build.routes_query(service) {
        service.site_url.join(&query.url())
    } else {
        service.site_url.join(query.serves)
    }
}

/// Declares the targets: the enum, `ALL` in target order (the order of documents, messages
/// and every listing), and each one's descriptor, from one line per target.
macro_rules! targets {
    ($($variant:ident => $module:ident),+ $(,)?) => {
        /// Every target wellgen can emit.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Target {
            $($variant),+
        }

        impl Target {
            pub const ALL: [Target; [$(stringify!($variant)),+].len()] = [$(Target::$variant),+];

            pub fn descriptor(self) -> &'static Descriptor {
                match self {
                    $(Self::$variant => &$module::DESCRIPTOR),+
                }
            }
        }
    };
}

targets! {
    AiEndpoint => ai,
    IaJson => ia_json,
    Rfc002 => rfc002,
    AiPlugin => ai_plugin,
    OpenApi => openapi,
    Adp => adp,
    Agis => agis,
    Mcp => mcp,
    A2a => a2a,
    McpServerCard => mcp_server_card,
    OAuthResource => oauth_resource,
    LlmsTxt => llms_txt,
    ApiCatalog => api_catalog,
    AgentSkills => agent_skills,
    AiCatalog => ai_catalog,
}

impl Target {
    /// The `--target` value.
    pub fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// The target named `name`, if any.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether a build publishes it unless told otherwise.
    pub fn by_default(self) -> bool {
        self.descriptor().opt_in.is_none()
    }

    /// The URL path of its primary document: how a target links another without importing it.
    pub fn path(self) -> &'static str {
        self.descriptor().documents[0].path
    }

    /// Whether `service` has its primary document written (`Document::when`).
    pub fn writes(self, service: &Service) -> bool {
        (self.descriptor().documents[0].written)(service)
    }

    /// The path of the member `name` of its family of documents (ADP's detail file of a
    /// capability).
    ///
    /// # Panics
    /// If the target publishes no family: a mistake in the caller, which names the target.
    pub fn member_path(self, name: &str) -> String {
        self.descriptor()
            .documents
            .iter()
            .find_map(|d| d.path_for(name))
            .expect("the target publishes a family of documents")
    }

    /// The targets a build publishes unless told otherwise, in target order.
    pub fn defaults() -> Vec<Target> {
        Self::ALL.into_iter().filter(|t| t.by_default()).collect()
    }

    /// `chosen` with the targets they require, in target order; every default target when
    /// none is chosen.
    pub fn with_requirements(chosen: &[Target]) -> Vec<Target> {
        if chosen.is_empty() {
            return Self::defaults();
        }
        let mut all: Vec<Target> = chosen
            .iter()
            .flat_map(|t| std::iter::once(*t).chain(t.descriptor().requires.iter().copied()))
            .collect();
        all.sort();
        all.dedup();
        all
    }
}

/// What several targets derive from the model alike, derived once, when first asked for.
#[derive(Default)]
pub struct Shared<'a> {
    /// AGIS endpoints and their MCP tool names: the AGIS and MCP targets' common ground.
    agis: OnceLock<Derived<'a>>,
}

impl<'a> Shared<'a> {
    pub fn agis(&self, service: &'a Service) -> &Derived<'a> {
        self.agis
            .get_or_init(|| crate::emit::derive::agis::derive(service))
    }
}

/// One target, lowered: every check made, what its documents need derived.
// One value per target per build, never a collection of them: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Lowered<'a> {
    AiEndpoint(ai::Lowered<'a>),
    IaJson(ia_json::Lowered<'a>),
    Rfc002(rfc002::Lowered),
    AiPlugin(ai_plugin::Lowered<'a>),
    OpenApi(openapi::Lowered<'a>),
    Adp(adp::Lowered<'a>),
    Agis(agis::Lowered<'a>),
    Mcp(mcp::Lowered<'a>),
    A2a(a2a::Lowered<'a>),
    McpServerCard(mcp_server_card::Lowered<'a>),
    OAuthResource(oauth_resource::Lowered<'a>),
    LlmsTxt(llms_txt::Lowered<'a>),
    ApiCatalog(api_catalog::Lowered<'a>),
    AgentSkills(agent_skills::Lowered),
    AiCatalog(ai_catalog::Lowered),
}

impl Target {
    /// Every check of this target's spec on `service`, reported into `diags`. `build` holds the
    /// targets of the build (documents that link to other documents link only to those) and
    /// whether it routes the query route.
    pub fn lower<'a>(
        self,
        service: &'a Service,
        build: &Build,
        shared: &'a Shared<'a>,
        diags: &mut Diagnostics,
    ) -> Lowered<'a> {
        let built = build.targets();
        match self {
            Self::AiEndpoint => Lowered::AiEndpoint(ai::lower(service, built, diags)),
            Self::IaJson => Lowered::IaJson(ia_json::lower(service, diags)),
            Self::Rfc002 => Lowered::Rfc002(rfc002::lower(service, build, diags)),
            Self::AiPlugin => Lowered::AiPlugin(ai_plugin::lower(service, build, diags)),
            Self::OpenApi => Lowered::OpenApi(openapi::lower(service, built, diags)),
            Self::Adp => Lowered::Adp(adp::lower(service, diags)),
            Self::Agis => Lowered::Agis(agis::lower(service, shared.agis(service), diags)),
            Self::Mcp => Lowered::Mcp(mcp::lower(shared.agis(service), diags)),
            Self::A2a => Lowered::A2a(a2a::lower(service, diags)),
            Self::McpServerCard => Lowered::McpServerCard(mcp_server_card::lower(service, diags)),
            Self::OAuthResource => Lowered::OAuthResource(oauth_resource::lower(service, diags)),
            Self::LlmsTxt => Lowered::LlmsTxt(llms_txt::lower(service, built, diags)),
            Self::ApiCatalog => Lowered::ApiCatalog(api_catalog::lower(service, diags)),
            Self::AgentSkills => Lowered::AgentSkills(agent_skills::lower(service, build, diags)),
            Self::AiCatalog => Lowered::AiCatalog(ai_catalog::lower(service, built, diags)),
        }
    }
}

/// A document the size pass ([`Lowered::fit`]) makes: the targets whose documents' size
/// decides what they hold (a large source's budget, a draft's size limit) make them there,
/// after every check and before `render`, which hands them on.
pub struct Fitted<T>(Option<T>);

impl<T> Default for Fitted<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T> Fitted<T> {
    pub fn set(&mut self, value: T) {
        self.0 = Some(value);
    }

    /// # Panics
    /// Before the size pass: `lower_and_render` and [`Target::emit`] run it before `render`.
    pub fn get(&self) -> &T {
        self.0.as_ref().expect("the size pass runs before render")
    }

    /// What the size pass made, where it made something: a target whose document's size
    /// matters only over a large source's budget makes it there only then, and `render`
    /// makes any other.
    pub fn made(&self) -> Option<&T> {
        self.0.as_ref()
    }
}

impl<'a> Lowered<'a> {
    /// The size pass: the documents whose size decides what they hold are made, and their
    /// size notes reported into `diags`. Every other target has made its choices in `lower`:
    /// each is listed, so that a new target's arm is asked for here too.
    pub fn fit(&mut self, service: &'a Service, diags: &mut Diagnostics) {
        match self {
            Self::AiEndpoint(l) => ai::fit(service, l, diags),
            Self::IaJson(l) => ia_json::fit(service, l, diags),
            Self::OpenApi(l) => openapi::fit(service, l, diags),
            Self::Agis(l) => agis::fit(service, l, diags),
            Self::Mcp(l) => mcp::fit(service, l, diags),
            Self::AgentSkills(l) => agent_skills::fit(service, l, diags),
            Self::Rfc002(_)
            | Self::AiPlugin(_)
            | Self::Adp(_)
            | Self::A2a(_)
            | Self::McpServerCard(_)
            | Self::OAuthResource(_)
            | Self::LlmsTxt(_)
            | Self::ApiCatalog(_)
            | Self::AiCatalog(_) => {}
        }
    }
}

impl Target {
    /// This target alone, lowered and rendered as in a build of every target (its diagnostics
    /// into `diags`; rendered even when they hold errors): for tests and tools that look at
    /// one target.
    pub fn emit(self, service: &Service, diags: &mut Diagnostics) -> Vec<Artifact> {
        let shared = Shared::default();
        let every = crate::emit::Choice::all(&Self::ALL);
        let mut lowered = self.lower(service, &Build::of(&every), &shared, diags);
        lowered.fit(service, diags);
        lowered.render(service, &Self::ALL)
    }
}

impl Lowered<'_> {
    /// The target's documents. `built` are the targets of the build: documents that link to
    /// other documents link only to those.
    pub fn render(&self, service: &Service, built: &[Target]) -> Vec<Artifact> {
        match self {
            Self::AiEndpoint(l) => ai::render(service, l),
            Self::IaJson(l) => ia_json::render(service, l),
            Self::Rfc002(l) => rfc002::render(service, l),
            Self::AiPlugin(l) => ai_plugin::render(l),
            Self::OpenApi(l) => openapi::render(service, l),
            Self::Adp(l) => adp::render(service, l),
            Self::Agis(l) => agis::render(service, l),
            Self::Mcp(l) => mcp::render(service, l),
            Self::A2a(l) => a2a::render(service, l),
            Self::McpServerCard(l) => mcp_server_card::render(service, l),
            Self::OAuthResource(l) => oauth_resource::render(service, l),
            Self::LlmsTxt(l) => llms_txt::render(service, l),
            Self::ApiCatalog(l) => api_catalog::render(service, built, l),
            Self::AgentSkills(l) => agent_skills::render(service, l),
            Self::AiCatalog(l) => ai_catalog::render(service, l),
        }
    }
}

impl clap::ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let d = self.descriptor();
        let paths: Vec<String> = d.documents.iter().map(Document::display_path).collect();
        let help = format!("{}; {}", paths.join(", "), d.spec);
        Some(clap::builder::PossibleValue::new(d.name).help(help))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_path_is_absolute_and_published_once() {
        let mut names = std::collections::BTreeSet::new();
        let mut paths = std::collections::BTreeSet::new();
        for t in Target::ALL {
            let d = t.descriptor();
            assert!(names.insert(d.name), "{} named twice", d.name);
            assert_eq!(Target::named(d.name), Some(t));
            assert!(!d.documents.is_empty(), "{}", d.name);
            for doc in d.documents {
                assert!(doc.path.starts_with('/'), "{}", doc.path);
                assert!(paths.insert(doc.path), "{} listed twice", doc.path);
            }
        }
    }

    #[test]
    fn a_family_index_is_the_one_document_in_its_folder() {
        let index = |t: Target| t.descriptor().family_index().map(|d| d.path);
        assert_eq!(
            index(Target::AiEndpoint),
            Some("/.well-known/ai-services/index.json")
        );
        assert_eq!(index(Target::AgentSkills), Some(agent_skills::INDEX_PATH));
        assert_eq!(index(Target::Adp), None);
        assert_eq!(index(Target::OpenApi), None);
    }

    #[test]
    fn requirements_are_added_and_ordered() {
        assert_eq!(Target::with_requirements(&[]), Target::defaults());
        assert!(!Target::defaults().contains(&Target::AiPlugin));
        assert_eq!(
            Target::with_requirements(&[Target::AiPlugin]),
            [Target::AiPlugin, Target::OpenApi]
        );
        let with = Target::with_requirements(&[Target::Agis, Target::Rfc002]);
        assert_eq!(
            with,
            [Target::Rfc002, Target::OpenApi, Target::Agis, Target::Mcp]
        );
    }

    #[test]
    fn the_api_description_is_linked_first() {
        let mut diags = crate::diag::Diagnostics::default();
        let service = crate::pipeline::load(
            std::path::Path::new("examples/bookshelf/service.toml"),
            &mut diags,
        )
        .expect("the example builds");
        let linked = linked(&service, &Target::ALL);
        assert_eq!(linked[0].link.relation, Relation::ServiceDesc);
        assert_eq!(linked[0].target, Target::OpenApi);
    }
}
