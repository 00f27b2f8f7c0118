//! The `Content-Type` Cloudflare Pages gives a file by its name: what the `mime` package (3.0.0,
//! bundled in wrangler, which types files both in `wrangler pages dev` and when `wrangler pages
//! deploy` uploads them) says for the extension, with `; charset=utf-8` after a `text/` type as
//! `wrangler pages dev` adds it. Not `super::super::site::content_type`, Netlify's and a plain
//! server's reading: `.js` is `application/javascript` here, `.ico` `image/vnd.microsoft.icon`.
//!
//! The table holds the extensions a published site uses, not mime's 900: any other goes out as
//! `application/octet-stream` here, where Pages may know a type for it.

/// The type for a file name: by the text after its last dot, lower-cased; a name without a dot
/// after its first character (`noext`, `.env`) has none.
pub fn content_type(name: &str) -> String {
    let ext = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => return OCTET_STREAM.into(),
    };
    let Ok(at) = TYPES.binary_search_by(|(e, _)| e.cmp(&ext.as_str())) else {
        return OCTET_STREAM.into();
    };
    let media = TYPES[at].1;
    if media.starts_with("text/") {
        format!("{media}; charset=utf-8")
    } else {
        media.into()
    }
}

const OCTET_STREAM: &str = "application/octet-stream";

/// Extension to media type, sorted by extension, as mime 3.0.0 maps them.
const TYPES: &[(&str, &str)] = &[
    ("7z", "application/x-7z-compressed"),
    ("aac", "audio/x-aac"),
    ("apk", "application/vnd.android.package-archive"),
    ("apng", "image/apng"),
    ("appcache", "text/cache-manifest"),
    ("atom", "application/atom+xml"),
    ("avif", "image/avif"),
    ("bmp", "image/bmp"),
    ("bz2", "application/x-bzip2"),
    ("cjs", "application/node"),
    ("css", "text/css"),
    ("csv", "text/csv"),
    ("doc", "application/msword"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("dtd", "application/xml-dtd"),
    ("eot", "application/vnd.ms-fontobject"),
    ("epub", "application/epub+zip"),
    ("flac", "audio/x-flac"),
    ("geojson", "application/geo+json"),
    ("gif", "image/gif"),
    ("glb", "model/gltf-binary"),
    ("gltf", "model/gltf+json"),
    ("gpx", "application/gpx+xml"),
    ("gz", "application/gzip"),
    ("heic", "image/heic"),
    ("heif", "image/heif"),
    ("htm", "text/html"),
    ("html", "text/html"),
    ("ico", "image/vnd.microsoft.icon"),
    ("ics", "text/calendar"),
    ("ini", "text/plain"),
    ("jar", "application/java-archive"),
    ("jpe", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("jpg", "image/jpeg"),
    ("js", "application/javascript"),
    ("json", "application/json"),
    ("json5", "application/json5"),
    ("jsonld", "application/ld+json"),
    ("jsx", "text/jsx"),
    ("kml", "application/vnd.google-earth.kml+xml"),
    ("less", "text/less"),
    ("log", "text/plain"),
    ("m4a", "audio/mp4"),
    ("m4v", "video/x-m4v"),
    ("manifest", "text/cache-manifest"),
    ("map", "application/json"),
    ("markdown", "text/markdown"),
    ("md", "text/markdown"),
    ("mdx", "text/mdx"),
    ("mjs", "application/javascript"),
    ("mov", "video/quicktime"),
    ("mp3", "audio/mpeg"),
    ("mp4", "video/mp4"),
    ("mpeg", "video/mpeg"),
    ("mpg", "video/mpeg"),
    ("odt", "application/vnd.oasis.opendocument.text"),
    ("oga", "audio/ogg"),
    ("ogg", "audio/ogg"),
    ("ogv", "video/ogg"),
    ("opus", "audio/ogg"),
    ("otf", "font/otf"),
    ("pdf", "application/pdf"),
    ("png", "image/png"),
    ("ppt", "application/vnd.ms-powerpoint"),
    (
        "pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    ("rar", "application/vnd.rar"),
    ("rdf", "application/rdf+xml"),
    ("rss", "application/rss+xml"),
    ("rtf", "application/rtf"),
    ("sh", "application/x-sh"),
    ("shtml", "text/html"),
    ("svg", "image/svg+xml"),
    ("svgz", "image/svg+xml"),
    ("tar", "application/x-tar"),
    ("text", "text/plain"),
    ("tif", "image/tiff"),
    ("tiff", "image/tiff"),
    ("toml", "application/toml"),
    ("ts", "video/mp2t"),
    ("tsv", "text/tab-separated-values"),
    ("ttf", "font/ttf"),
    ("txt", "text/plain"),
    ("vcf", "text/x-vcard"),
    ("vtt", "text/vtt"),
    ("wasm", "application/wasm"),
    ("wav", "audio/wav"),
    ("weba", "audio/webm"),
    ("webm", "video/webm"),
    ("webmanifest", "application/manifest+json"),
    ("webp", "image/webp"),
    ("woff", "font/woff"),
    ("woff2", "font/woff2"),
    ("xht", "application/xhtml+xml"),
    ("xhtml", "application/xhtml+xml"),
    ("xls", "application/vnd.ms-excel"),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    ("xml", "application/xml"),
    ("xsd", "application/xml"),
    ("xsl", "application/xml"),
    ("xz", "application/x-xz"),
    ("yaml", "text/yaml"),
    ("yml", "text/yaml"),
    ("zip", "application/zip"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_for_binary_search() {
        assert!(TYPES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn types_are_wranglers() {
        // What `wrangler pages dev` 4.86.0 answered for each.
        for (name, want) in [
            ("a.js", "application/javascript"),
            ("a.ico", "image/vnd.microsoft.icon"),
            ("a.md", "text/markdown; charset=utf-8"),
            ("a.txt", "text/plain; charset=utf-8"),
            ("a.html", "text/html; charset=utf-8"),
            ("UPPER.JSON", "application/json"),
            ("a.map", "application/json"),
            ("a.ts", "video/mp2t"),
            ("a.agis", "application/octet-stream"),
            ("noext", "application/octet-stream"),
            (".env", "application/octet-stream"),
        ] {
            assert_eq!(content_type(name), want, "{name}");
        }
    }
}
