//! The `eddi` binary: parses the command line and hands over to [`eddi::cli`].

fn main() -> std::process::ExitCode {
    #[cfg(not(fuzzing))]
    eddi::tree_heap::use_mimalloc();
    eddi::cli::main()
}
