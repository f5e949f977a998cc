//! The `eddi` binary: parses the command line and hands over to [`eddi::cli`].

fn main() -> std::process::ExitCode {
    eddi::cli::main()
}
