fn main() -> std::process::ExitCode {
    wellgen::cli::main()
}
