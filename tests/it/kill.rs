//! Nothing lost: a build killed with SIGKILL at any point of its write leaves, once the next
//! run has read the journal (`wellgen::write::recover`, which every build calls first), exactly
//! the old output or exactly the new one, never a mix and never a temporary file.
//!
//! The binary stops at a named point when `WELLGEN_TEST_PAUSE` says so (debug builds only),
//! prints `wellgen: paused at <point>`, and is killed there.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use crate::common::*;
use wellgen::write::{self, Recovered};

/// A service with `range` capabilities, all descriptions mentioning `word`: large enough that a
/// build writes a few hundred files.
fn service(word: &str, range: std::ops::Range<usize>) -> String {
    let mut text = format!(
        "[service]\nname = \"Big\"\ndescription = \"The {word} catalogue of many items.\"\n\
         base_url = \"https://big.example.com\"\n\n[auth]\ntype = \"none\"\n\n[deploy]\nhost = \"generic\"\n"
    );
    for i in range {
        text.push_str(&format!(
            "\n[[capabilities]]\nid = \"item_{i}\"\ndescription = \"Get the {word} item number {i}\"\n\
             method = \"GET\"\npath = \"/api/items/{i}\"\nreturns = \"item {{id, name}}\"\n"
        ));
    }
    text
}

struct Site {
    _work: tempfile::TempDir,
    old: std::path::PathBuf,
    new: std::path::PathBuf,
    dist: std::path::PathBuf,
}

/// A site folder with a user's own files, built once from the old service.
fn site() -> Site {
    let work = tempfile::tempdir().unwrap();
    let old = work.path().join("old.toml");
    let new = work.path().join("new.toml");
    fs::write(&old, service("old", 0..80)).unwrap();
    fs::write(&new, service("new", 10..84)).unwrap();
    let dist = work.path().join("dist");
    fs::create_dir_all(&dist).unwrap();
    fs::write(dist.join("index.html"), "<h1>my site</h1>\n").unwrap();
    fs::write(dist.join("_headers"), "/index.html\n  X-Mine: yes\n").unwrap();
    build(&old, &dist);
    Site {
        _work: work,
        old,
        new,
        dist,
    }
}

fn build(source: &Path, dist: &Path) {
    let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(dist));
    assert_eq!(code, 0, "{stderr}");
}

/// The folder as a user sees it, without wellgen's journal and staged files.
fn visible(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files(dir)
        .into_iter()
        .filter(|(p, _)| !is_bookkeeping(p))
        .collect()
}

fn is_bookkeeping(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == write::JOURNAL || (name.starts_with(".wellgen-") && name.ends_with(".tmp"))
}

/// Starts a build of `source` into `dist` that stops at `point`, and kills it there.
fn kill_at(source: &Path, dist: &Path, point: &str) {
    let mut child = wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(dist)
        .env("WELLGEN_TEST_PAUSE", point)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("the build never paused at {point}:\n{seen}");
        }
        if line.contains(&format!("paused at {point}")) {
            break;
        }
        seen.push_str(&line);
    }
    child.kill().unwrap(); // SIGKILL: no destructor, no cleanup runs
    child.wait().unwrap();
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn a_killed_build_leaves_the_old_output_or_the_new_one() {
    let reference = site();
    let old = files(&reference.dist);
    build(&reference.new, &reference.dist);
    let new = files(&reference.dist);
    assert_ne!(old, new);
    let changed = new.iter().filter(|(p, b)| old.get(*p) != Some(*b)).count();
    assert!(
        changed > 70,
        "{changed} files change: too few to kill mid-way"
    );

    for (point, expected) in [
        ("staged", Recovered::Undone),
        ("committed", Recovered::Finished),
        ("renamed:1", Recovered::Finished),
        ("renamed:40", Recovered::Finished),
        ("renamed:80", Recovered::Finished),
    ] {
        let s = site();
        assert_eq!(files(&s.dist), old);
        kill_at(&s.new, &s.dist, point);
        if expected == Recovered::Undone {
            // Killed before the commit point: what a user sees is still the old output.
            assert!(visible(&s.dist) == old, "{point}: the old output changed");
        } else {
            assert!(files(&s.dist).contains_key(write::JOURNAL), "{point}");
        }
        if point == "renamed:40" {
            // Mid-way, per-file renames alone would leave a mix: the journal is what saves it.
            let v = visible(&s.dist);
            assert!(v != old && v != new, "the kill did not land mid-way");
        }
        let recovered = write::recover(&s.dist).unwrap();
        assert_eq!(recovered, Some(expected), "{point}");
        let after = files(&s.dist);
        let want = if expected == Recovered::Undone {
            &old
        } else {
            &new
        };
        if after != *want {
            let differ: Vec<&String> = after
                .keys()
                .chain(want.keys())
                .filter(|p| after.get(*p) != want.get(*p))
                .take(10)
                .collect();
            panic!("{point}: after recovery the folder is a mix; differing: {differ:?}");
        }
        assert_eq!(write::recover(&s.dist).unwrap(), None, "{point}: done once");

        // The next build after a kill works as usual.
        build(&s.new, &s.dist);
        assert_eq!(files(&s.dist), new, "{point}");
        build(&s.old, &s.dist);
        assert_eq!(files(&s.dist), old, "{point}");
    }
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn a_build_finishes_the_journal_of_a_killed_one_first() {
    let s = site();
    let old = files(&s.dist);
    kill_at(&s.new, &s.dist, "renamed:10");
    // Rebuilding the old service first finishes the killed build, then writes the old output.
    let (code, _, stderr) = run(wellgen().arg("build").arg(&s.old).arg("-o").arg(&s.dist));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("finished the renames"), "{stderr}");
    assert_eq!(files(&s.dist), old);
}

#[test]
fn a_damaged_journal_is_refused_not_followed() {
    let s = site();
    let before = files(&s.dist);
    let outside = s.dist.parent().unwrap().join("victim.txt");
    fs::write(&outside, "keep me").unwrap();
    let hash = write::content_hash(b"keep me");
    fs::write(
        s.dist.join(write::JOURNAL),
        format!("state commit\nremove /../victim.txt {hash}\n"),
    )
    .unwrap();
    let err = write::recover(&s.dist).unwrap_err();
    assert!(err.message.contains("damaged"), "{}", err.message);
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep me");
    fs::remove_file(s.dist.join(write::JOURNAL)).unwrap();
    assert_eq!(files(&s.dist), before);
}

/// A site folder holding only wellgen's files (a fresh `dist/`), built once from the old
/// service: a build swaps it whole with a staged sibling.
fn own_site() -> Site {
    let s = site();
    fs::remove_dir_all(&s.dist).unwrap();
    build(&s.old, &s.dist);
    s
}

/// Where a swap stages the new output: beside the output folder.
fn staging(dist: &Path) -> std::path::PathBuf {
    dist.with_file_name(".wellgen-dist.tmp")
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn a_kill_while_the_journal_is_saved_leaves_nothing_behind() {
    let s = site();
    let old = files(&s.dist);
    fs::write(
        s.dist.join(".wellgen-notes.tmp"),
        "the user's, by its name alone",
    )
    .unwrap();
    let old_with_users = files(&s.dist);
    // What 3 of 370 kills left: an empty staged journal and no journal.
    fs::write(s.dist.join(".wellgen-.wellgen-journal.tmp"), "").unwrap();
    build(&s.old, &s.dist);
    assert_eq!(files(&s.dist), old_with_users, "an unchanged build left it");
    // Killed while the first journal was being written: no journal, only its staged copy.
    kill_at(&s.new, &s.dist, "journal-staged:stage");
    assert!(s.dist.join(".wellgen-.wellgen-journal.tmp").exists());
    assert!(!s.dist.join(write::JOURNAL).exists());
    // A build that changes nothing still clears it, and only it.
    build(&s.old, &s.dist);
    assert_eq!(files(&s.dist), old_with_users);
    fs::remove_file(s.dist.join(".wellgen-notes.tmp")).unwrap();

    // Killed while switching the journal to `commit`: the build is undone, the copy goes too.
    kill_at(&s.new, &s.dist, "journal-staged:commit");
    assert!(s.dist.join(".wellgen-.wellgen-journal.tmp").exists());
    assert_eq!(write::recover(&s.dist).unwrap(), Some(Recovered::Undone));
    assert_eq!(files(&s.dist), old);
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn a_folder_wellgen_owns_whole_is_swapped_and_never_mixed() {
    let reference = own_site();
    let old = files(&reference.dist);
    build(&reference.new, &reference.dist);
    let new = files(&reference.dist);
    assert!(!staging(&reference.dist).exists());

    for (point, expected) in [
        ("staged", Recovered::Undone),
        ("committed", Recovered::Finished),
    ] {
        let s = own_site();
        kill_at(&s.new, &s.dist, point);
        assert!(staging(&s.dist).is_dir(), "{point}: no staging folder");
        // Even before the next run, what a user sees is one output or the other.
        let want = if expected == Recovered::Undone {
            &old
        } else {
            &new
        };
        assert!(visible(&s.dist) == *want, "{point}: the folder is a mix");
        assert_eq!(write::recover(&s.dist).unwrap(), Some(expected), "{point}");
        assert!(files(&s.dist) == *want, "{point}: not clean after recovery");
        assert!(!staging(&s.dist).exists(), "{point}: staging folder left");
        build(&s.new, &s.dist);
        assert_eq!(files(&s.dist), new, "{point}");
    }

    // A folder of the user's of the same name beside the output is never taken for it.
    let s = own_site();
    fs::create_dir(staging(&s.dist)).unwrap();
    fs::write(staging(&s.dist).join("mine.txt"), "mine").unwrap();
    build(&s.new, &s.dist);
    assert_eq!(files(&s.dist), new);
    assert_eq!(
        fs::read_to_string(staging(&s.dist).join("mine.txt")).unwrap(),
        "mine"
    );
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hooks (WELLGEN_TEST_FAIL) exist in debug builds only"
)]
fn an_error_after_the_commit_point_is_completed_by_the_next_build() {
    let reference = site();
    build(&reference.new, &reference.dist);
    let shared_new = files(&reference.dist);
    let reference = own_site();
    build(&reference.new, &reference.dist);
    let own_new = files(&reference.dist);

    // A folder shared with the user's files goes through the journal, one wellgen owns whole
    // through the swap; each fails once after its commit point.
    for (s, point, new) in [
        (site(), "renamed:3", &shared_new),
        (own_site(), "committed", &own_new),
    ] {
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(&s.new)
            .arg("-o")
            .arg(&s.dist)
            .env("WELLGEN_TEST_FAIL", point));
        assert_eq!(code, 2, "{point}: {stderr}");
        assert!(stderr.contains("injected failure"), "{point}: {stderr}");
        assert!(
            stderr.contains("is completed by the next build"),
            "{point}: {stderr}"
        );
        let (code, _, stderr) = run(wellgen().arg("build").arg(&s.new).arg("-o").arg(&s.dist));
        assert_eq!(code, 0, "{point}: {stderr}");
        assert!(stderr.contains("interrupted earlier"), "{point}: {stderr}");
        assert!(files(&s.dist) == *new, "{point}: leftovers or a mix");
        assert!(!staging(&s.dist).exists(), "{point}: staging folder left");
    }
}

/// Starts a build of `source` into `dist` that stops at `point`, and returns it paused there.
// The caller kills and waits for the child it gets.
#[allow(clippy::zombie_processes)]
fn paused_at(source: &Path, dist: &Path, point: &str) -> std::process::Child {
    let mut child = wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(dist)
        .env("WELLGEN_TEST_PAUSE", point)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the build never paused at {point}:\n{seen}");
        }
        if line.contains(&format!("paused at {point}")) {
            return child;
        }
        seen.push_str(&line);
    }
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn a_second_build_into_a_folder_being_written_is_refused() {
    // A folder shared with the user's files (the journal) and one wellgen owns whole (the swap).
    for s in [site(), own_site()] {
        let before = files(&s.dist);
        let mut first = paused_at(&s.new, &s.dist, "staged");
        let (code, _, stderr) = run(wellgen().arg("build").arg(&s.old).arg("-o").arg(&s.dist));
        first.kill().unwrap();
        first.wait().unwrap();
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("another wellgen build is writing into"),
            "{stderr}"
        );
        // The refused build touched nothing: recovering the killed one gives the old output.
        write::recover(&s.dist).unwrap();
        assert!(files(&s.dist) == before, "a mix");
        assert!(!staging(&s.dist).exists());
    }
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the pause hook (WELLGEN_TEST_PAUSE) exists in debug builds only"
)]
fn an_abandoned_staging_folder_is_removed_by_the_next_build() {
    let reference = own_site();
    build(&reference.new, &reference.dist);
    let new = files(&reference.dist);

    // Killed before the staged folder's journal had its first byte, and while the old output
    // was being removed from it after the exchange.
    for point in ["swap-journal-created", "discarding"] {
        let s = own_site();
        kill_at(&s.new, &s.dist, point);
        assert!(staging(&s.dist).is_dir(), "{point}");
        build(&s.new, &s.dist);
        assert!(!staging(&s.dist).exists(), "{point}: staging folder left");
        assert_eq!(files(&s.dist), new, "{point}");
    }
    // What such kills left before: no journal in the output folder, and beside it a folder
    // holding an empty journal, or only the old manifest.
    for (name, text) in [(write::JOURNAL, ""), (write::MANIFEST, "/a sha256:00\n")] {
        let s = own_site();
        fs::create_dir(staging(&s.dist)).unwrap();
        fs::write(staging(&s.dist).join(name), text).unwrap();
        build(&s.new, &s.dist);
        assert!(!staging(&s.dist).exists(), "{name}: staging folder left");
        assert_eq!(files(&s.dist), new, "{name}");
    }
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hooks (WELLGEN_TEST_FAIL) exist in debug builds only"
)]
fn a_journal_that_cannot_be_saved_leaves_no_copy() {
    let s = site();
    let before = files(&s.dist);
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(&s.new)
        .arg("-o")
        .arg(&s.dist)
        .env("WELLGEN_TEST_FAIL", "journal-write"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("injected failure"), "{stderr}");
    assert!(files(&s.dist) == before, "leftovers or a mix");
}
