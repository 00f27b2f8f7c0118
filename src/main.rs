// mimalloc: malloc and free were a third of the instructions of a build from a large OpenAPI
// file (docs/PERFORMANCE.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    wellgen::cli::main()
}
