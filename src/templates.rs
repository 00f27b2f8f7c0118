//! Templates: embedded, addressed by constants, loaded once, strict about undefined values.

use std::sync::OnceLock;

use minijinja::{Environment, UndefinedBehavior};

pub const HEADERS: &str = "_headers.j2";
pub const LLMS_TXT: &str = "llms.txt.j2";

const ALL: [(&str, &str); 2] = [
    (HEADERS, include_str!("../templates/_headers.j2")),
    (LLMS_TXT, include_str!("../templates/llms.txt.j2")),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Block tags eat their own line; every template ends with exactly one newline.
        env.set_trim_blocks(true);
        env.set_keep_trailing_newline(true);
        for (name, source) in ALL {
            env.add_template(name, source)
                .expect("embedded templates parse");
        }
        env
    })
}

/// Renders an embedded template. Views are built by wellgen itself, so a failure is a bug in
/// wellgen; it is reported as an error rather than a panic.
pub fn render(name: &str, ctx: minijinja::Value) -> Result<String, String> {
    env()
        .get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(|e| format!("internal error: template {name} failed: {e:#}; please report this"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_loads() {
        for (name, _) in ALL {
            assert!(env().get_template(name).is_ok(), "{name}");
        }
    }
}
