//! One budget pass. An imported OpenAPI document of at least `BUDGET_FROM` bytes is the byte
//! budget of every document built from it (`source_budget`): a document over it takes the
//! steps its target declares ([`Step`]), in order, each leaving something out (or sharing
//! schemas, which leaves nothing out) with a note that says what and the size it makes, until
//! it fits ([`fit`]). Where no step makes it fit, it is written as the last step left it.

use crate::diag::Diagnostics;
use crate::emit::{schemas, to_json_bytes_budgeted};
use crate::model::Service;

/// A document and its JSON.
pub type Fitted<D> = (D, Vec<u8>);
/// A document made another way: `Ok` to keep it, else `Err` with the one it was given.
pub type Attempt<'a, D> =
    &'a dyn Fn(Fitted<D>, usize, &mut Diagnostics) -> Result<Fitted<D>, Fitted<D>>;

/// One way a document of type `D` gets smaller, as its target declares it.
pub enum Step<'a, D> {
    /// `drop` leaves something out and says how many; if any, a note says `what` for that
    /// many, after "larger than its N KB OpenAPI source", with its help.
    Out(
        &'a dyn Fn(&mut D) -> usize,
        &'a dyn Fn(usize) -> String,
        &'static str,
    ),
    /// The descriptions in its schemas (named for the note), nested ones first
    /// ([`cut_to_budget`]).
    Descriptions(&'a dyn Fn(&mut D, schemas::Cut) -> usize, &'static str),
    /// The document made another way, kept where `Ok` (with its own note): e.g. its schemas
    /// shared anew ([`Reshare::if_smaller`]).
    Try(Attempt<'a, D>),
    /// The document made again with schemas (named for the note) kept to the first of these
    /// levels of fields that fits ([`cut_levels`]; the render returns how many subschemas it
    /// cut).
    Levels(&'static [usize], &'a dyn Fn(usize) -> (D, usize), &'a str),
    /// Something left out, with its own note, and the document's JSON made anew in the
    /// target's own layout (ia.json's: compact only where the pretty form is over its limit).
    Make(&'a dyn Fn(&mut D, &mut Diagnostics) -> Vec<u8>),
}

/// `document` (its name in the notes) and its JSON, made to fit `budget` by `steps`, in
/// order, until it does; unchanged when it fits already.
pub fn fit<D: serde::Serialize>(
    document: &str,
    (doc, json): (D, Vec<u8>),
    budget: usize,
    steps: &[Step<'_, D>],
    diags: &mut Diagnostics,
) -> (D, Vec<u8>) {
    take_steps(document, doc, Some(json), budget, steps, diags)
}

/// [`fit`] for a document found over `budget` by a serialisation that stopped there
/// (`to_json_bytes_within`): its whole JSON is made only where a step asks for it, so a
/// document whose first step is a [`Step::Make`] is never serialised past its budget whole.
pub fn fit_over<D: serde::Serialize>(
    document: &str,
    doc: D,
    budget: usize,
    steps: &[Step<'_, D>],
    diags: &mut Diagnostics,
) -> (D, Vec<u8>) {
    take_steps(document, doc, None, budget, steps, diags)
}

/// The steps of [`fit`] and [`fit_over`]; `json` is `None` where it is not made yet.
fn take_steps<D: serde::Serialize>(
    document: &str,
    mut doc: D,
    mut json: Option<Vec<u8>>,
    budget: usize,
    steps: &[Step<'_, D>],
    diags: &mut Diagnostics,
) -> (D, Vec<u8>) {
    // The whole JSON, made only where a step needs it.
    let whole = |json: &mut Option<Vec<u8>>, doc: &D| {
        json.take()
            .unwrap_or_else(|| to_json_bytes_budgeted(doc, Some(budget)))
    };
    for step in steps {
        if json.as_ref().is_some_and(|json| json.len() <= budget) {
            break;
        }
        json = Some(match step {
            Step::Make(make) => make(&mut doc, diags),
            Step::Out(drop, what, help) => {
                let before = whole(&mut json, &doc);
                left_out(
                    document,
                    &mut doc,
                    before,
                    budget,
                    *drop,
                    (*what, help),
                    diags,
                )
            }
            Step::Descriptions(drop, schemas) => {
                let before = whole(&mut json, &doc);
                cut_to_budget(&mut doc, before, budget, drop, [document, schemas], diags)
            }
            Step::Try(other) => {
                let before = whole(&mut json, &doc);
                let made;
                (doc, made) =
                    other((doc, before), budget, diags).unwrap_or_else(|as_it_was| as_it_was);
                made
            }
            Step::Levels(tried, render, schemas) => {
                let before = whole(&mut json, &doc);
                let (cut_json, cut_doc) =
                    cut_levels(before, budget, (tried, render), [document, schemas], diags);
                if let Some(cut_doc) = cut_doc {
                    doc = cut_doc;
                }
                cut_json
            }
        });
    }
    let json = whole(&mut json, &doc);
    (doc, json)
}

/// A [`Step::Out`] on `json`, the JSON of `doc`, over `budget`.
fn left_out<D: serde::Serialize>(
    document: &str,
    doc: &mut D,
    json: Vec<u8>,
    budget: usize,
    drop: &dyn Fn(&mut D) -> usize,
    (what, help): (&dyn Fn(usize) -> String, &str),
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let n = drop(doc);
    if n == 0 {
        return json;
    }
    let after = to_json_bytes_budgeted(doc, Some(budget));
    diags.push(
        crate::diag::Diagnostic::new(
            crate::diag::Code::SizedToSource,
            format!(
                "{document} would be {} KB, larger than its {} KB OpenAPI source{}, making it {} KB",
                json.len().div_ceil(1024),
                budget.div_ceil(1024),
                what(n),
                after.len().div_ceil(1024),
            ),
        )
        .help(help),
    );
    after
}

/// Imported OpenAPI documents at least this large are a budget: a generated document that
/// would be larger than its source leaves out what its specification lets it leave out (ia.json
/// its response schemas, MCP the descriptions deep inside input schemas), and says so in a note.
/// Smaller sources (and a plain service.toml, which has no source size) change nothing: a
/// small API's documents are larger than its source by nature (every target says it again).
pub const BUDGET_FROM: usize = 64 * 1024;

/// The note of a document that left `removed` descriptions inside `schemas` out to stay
/// within its large source's `budget` (`before` and `after`: its sizes in bytes), at most as
/// deep as `cut`.
fn descriptions_cut(
    document: &str,
    schemas: &str,
    removed: usize,
    cut: schemas::Cut,
    [before, budget, after]: [usize; 3],
) -> crate::diag::Diagnostic {
    let (which, kept) = match cut {
        schemas::Cut::Nested => ("nested inside", "each parameter keeps its own"),
        schemas::Cut::All => ("of", "the parameters' own too, as it was still larger"),
    };
    crate::diag::Diagnostic::new(
        crate::diag::Code::SizedToSource,
        format!(
            "{document} would be {} KB, larger than its {} KB OpenAPI source: {removed} descriptions \
             {which} {schemas} are left out ({kept}), making it {} KB",
            before.div_ceil(1024),
            budget.div_ceil(1024),
            after.div_ceil(1024),
        ),
    )
    .help(DESCRIPTIONS_KEPT_HELP)
}

/// The help of a note that a document left descriptions out to stay within its source.
pub const DESCRIPTIONS_KEPT_HELP: &str = "the OpenAPI description keeps them; import fewer operations (`[source] include`/`exclude`) to keep them here too";

/// `body`, the JSON of `doc`, made to fit its source's `budget` where it is over: `drop` leaves
/// out the descriptions of `doc`'s schemas one [`schemas::Cut`] at a time, while it is still
/// over, and a note says how many went (`document` and `schemas` name what, in the note).
pub fn cut_to_budget<T: serde::Serialize>(
    doc: &mut T,
    mut body: Vec<u8>,
    budget: usize,
    mut drop: impl FnMut(&mut T, schemas::Cut) -> usize,
    [document, schemas]: [&str; 2],
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let before = body.len();
    let (mut removed, mut deepest) = (0, None);
    for cut in schemas::Cut::ORDER {
        if body.len() <= budget {
            break;
        }
        let n = drop(doc, cut);
        if n > 0 {
            removed += n;
            deepest = Some(cut);
            body = to_json_bytes_budgeted(doc, Some(budget));
        }
    }
    if let Some(cut) = deepest {
        diags.push(descriptions_cut(
            document,
            schemas,
            removed,
            cut,
            [before, budget, body.len()],
        ));
    }
    body
}

/// A document's schemas shared anew over its budget, where a reference is shorter than the
/// copies (which leaves nothing out), and the note's words.
pub struct Reshare {
    /// The document shared anew; the schemas named in the second argument (the model's named
    /// schemas, `schemas::NamedKeys`) stay as they are.
    pub reshared: fn(&serde_json::Value, &[String]) -> serde_json::Value,
    pub document: &'static str,
    /// What the sharing does, after "larger than its source: ".
    pub how: &'static str,
    pub help: &'static str,
}

impl Reshare {
    /// `doc` shared anew, if that makes it fit `budget` or saves a kilobyte or more, with a
    /// note (`Ok`); else `doc` and its `json` as they were (`Err`).
    pub fn if_smaller(
        &self,
        (doc, json): (serde_json::Value, Vec<u8>),
        budget: usize,
        named: &[String],
        diags: &mut Diagnostics,
    ) -> Result<(serde_json::Value, Vec<u8>), (serde_json::Value, Vec<u8>)> {
        let shared = (self.reshared)(&doc, named);
        let shared_json = to_json_bytes_budgeted(&shared, Some(budget));
        // A saving under a kilobyte is taken only when it makes the document fit: the note
        // counts in kilobytes.
        let fits = shared_json.len() <= budget;
        if shared_json.len() >= json.len() || !fits && shared_json.len() + 1024 > json.len() {
            return Err((doc, json));
        }
        diags.push(
            crate::diag::Diagnostic::new(
                crate::diag::Code::SizedToSource,
                format!(
                    "{} would be {} KB, larger than its {} KB OpenAPI source: {}, making it {} KB",
                    self.document,
                    json.len().div_ceil(1024),
                    budget.div_ceil(1024),
                    self.how,
                    shared_json.len().div_ceil(1024),
                ),
            )
            .help(self.help),
        );
        Ok((shared, shared_json))
    }
}

/// The levels of fields below each output schema's top a document tries, deepest first, when
/// it is still over its source's budget with no description left to leave out (the import
/// keeps five).
pub const OUTPUT_LEVELS: [usize; 4] = [4, 3, 2, 1];
/// The same for input schemas (MCP's, which carry the request body's fields): each parameter
/// keeps its own fields' types, at least.
pub const INPUT_LEVELS: [usize; 3] = [4, 3, 2];

/// `body`, a document still over its source's `budget` with no description left to leave
/// out, made again by `render(levels)` with its `schemas` kept to `levels` levels
/// (`schemas::keep_levels`; `render` returns the document and how many subschemas it cut),
/// at the first of `tried` (deepest first) that fits, with a note. Where none does, the
/// schemas stay whole: cutting them would lose what they say and still not fit.
pub fn cut_levels<T: serde::Serialize>(
    body: Vec<u8>,
    budget: usize,
    (tried, mut render): (&[usize], impl FnMut(usize) -> (T, usize)),
    [document, outputs]: [&str; 2],
    diags: &mut Diagnostics,
) -> (Vec<u8>, Option<T>) {
    let Some((&last, deeper)) = tried.split_last() else {
        return (body, None);
    };
    let before = body.len();
    let mut fits = |levels| {
        let (doc, cut) = render(levels);
        let json = to_json_bytes_budgeted(&doc, Some(budget));
        (cut > 0 && json.len() <= budget).then_some((json, doc, levels, cut))
    };
    // The shallowest first: where it does not fit, no level does, and nothing more is made.
    let Some(shallowest) = fits(last) else {
        return (body, None);
    };
    let deepest_fit = deeper.iter().find_map(|&l| fits(l));
    let (json, doc, levels, cut) = deepest_fit.unwrap_or(shallowest);
    diags.push(
        crate::diag::Diagnostic::new(
            crate::diag::Code::SizedToSource,
            format!(
                "{document} would be {} KB, larger than its {} KB OpenAPI source, with no \
                 description left to leave out: {outputs} keep {levels} level{} of fields, the \
                 {cut} schemas below becoming `{{}}` (any value), making it {} KB",
                before.div_ceil(1024),
                budget.div_ceil(1024),
                if levels == 1 { "" } else { "s" },
                json.len().div_ceil(1024),
            ),
        )
        .help(DESCRIPTIONS_KEPT_HELP),
    );
    (json, Some(doc))
}

/// The byte budget of every generated document of `service`, if it has one (`BUDGET_FROM`).
pub fn source_budget(service: &Service) -> Option<usize> {
    service.source_bytes.filter(|&n| n >= BUDGET_FROM)
}
