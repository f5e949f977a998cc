//! The members of Python's builtin classes (`object`, `dict`, `Exception`,
//! …) other than special names: a project class deriving from one can
//! only inherit, override or be called back on these. Generated from
//! `dir()` of each class in CPython 3.11.

/// The members of the builtin class `name`, or `None` when `name` is not
/// a builtin class.
pub fn members(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "ArithmeticError"
        | "AssertionError"
        | "BaseException"
        | "BufferError"
        | "BytesWarning"
        | "DeprecationWarning"
        | "EOFError"
        | "EncodingWarning"
        | "Exception"
        | "FloatingPointError"
        | "FutureWarning"
        | "GeneratorExit"
        | "ImportWarning"
        | "IndexError"
        | "KeyError"
        | "KeyboardInterrupt"
        | "LookupError"
        | "MemoryError"
        | "NotImplementedError"
        | "OverflowError"
        | "PendingDeprecationWarning"
        | "RecursionError"
        | "ReferenceError"
        | "ResourceWarning"
        | "RuntimeError"
        | "RuntimeWarning"
        | "StopAsyncIteration"
        | "SyntaxWarning"
        | "SystemError"
        | "TypeError"
        | "UnicodeError"
        | "UnicodeWarning"
        | "UserWarning"
        | "ValueError"
        | "Warning"
        | "ZeroDivisionError" => &["add_note", "args", "with_traceback"],
        "AttributeError" => &["add_note", "args", "name", "obj", "with_traceback"],
        "BaseExceptionGroup" | "ExceptionGroup" => &[
            "add_note",
            "args",
            "derive",
            "exceptions",
            "message",
            "split",
            "subgroup",
            "with_traceback",
        ],
        "BlockingIOError"
        | "BrokenPipeError"
        | "ChildProcessError"
        | "ConnectionAbortedError"
        | "ConnectionError"
        | "ConnectionRefusedError"
        | "ConnectionResetError"
        | "EnvironmentError"
        | "FileExistsError"
        | "FileNotFoundError"
        | "IOError"
        | "InterruptedError"
        | "IsADirectoryError"
        | "NotADirectoryError"
        | "OSError"
        | "PermissionError"
        | "ProcessLookupError"
        | "TimeoutError" => &[
            "add_note",
            "args",
            "characters_written",
            "errno",
            "filename",
            "filename2",
            "strerror",
            "with_traceback",
        ],
        "ImportError" | "ModuleNotFoundError" => {
            &["add_note", "args", "msg", "name", "path", "with_traceback"]
        }
        "IndentationError" | "SyntaxError" | "TabError" => &[
            "add_note",
            "args",
            "end_lineno",
            "end_offset",
            "filename",
            "lineno",
            "msg",
            "offset",
            "print_file_and_line",
            "text",
            "with_traceback",
        ],
        "NameError" | "UnboundLocalError" => &["add_note", "args", "name", "with_traceback"],
        "StopIteration" => &["add_note", "args", "value", "with_traceback"],
        "SystemExit" => &["add_note", "args", "code", "with_traceback"],
        "UnicodeDecodeError" | "UnicodeEncodeError" | "UnicodeTranslateError" => &[
            "add_note",
            "args",
            "encoding",
            "end",
            "object",
            "reason",
            "start",
            "with_traceback",
        ],
        "bool" | "int" => &[
            "as_integer_ratio",
            "bit_count",
            "bit_length",
            "conjugate",
            "denominator",
            "from_bytes",
            "imag",
            "numerator",
            "real",
            "to_bytes",
        ],
        "bytearray" => &[
            "append",
            "capitalize",
            "center",
            "clear",
            "copy",
            "count",
            "decode",
            "endswith",
            "expandtabs",
            "extend",
            "find",
            "fromhex",
            "hex",
            "index",
            "insert",
            "isalnum",
            "isalpha",
            "isascii",
            "isdigit",
            "islower",
            "isspace",
            "istitle",
            "isupper",
            "join",
            "ljust",
            "lower",
            "lstrip",
            "maketrans",
            "partition",
            "pop",
            "remove",
            "removeprefix",
            "removesuffix",
            "replace",
            "reverse",
            "rfind",
            "rindex",
            "rjust",
            "rpartition",
            "rsplit",
            "rstrip",
            "split",
            "splitlines",
            "startswith",
            "strip",
            "swapcase",
            "title",
            "translate",
            "upper",
            "zfill",
        ],
        "bytes" => &[
            "capitalize",
            "center",
            "count",
            "decode",
            "endswith",
            "expandtabs",
            "find",
            "fromhex",
            "hex",
            "index",
            "isalnum",
            "isalpha",
            "isascii",
            "isdigit",
            "islower",
            "isspace",
            "istitle",
            "isupper",
            "join",
            "ljust",
            "lower",
            "lstrip",
            "maketrans",
            "partition",
            "removeprefix",
            "removesuffix",
            "replace",
            "rfind",
            "rindex",
            "rjust",
            "rpartition",
            "rsplit",
            "rstrip",
            "split",
            "splitlines",
            "startswith",
            "strip",
            "swapcase",
            "title",
            "translate",
            "upper",
            "zfill",
        ],
        "classmethod" | "enumerate" | "filter" | "map" | "object" | "reversed" | "staticmethod"
        | "super" | "zip" => &[],
        "complex" => &["conjugate", "imag", "real"],
        "dict" => &[
            "clear",
            "copy",
            "fromkeys",
            "get",
            "items",
            "keys",
            "pop",
            "popitem",
            "setdefault",
            "update",
            "values",
        ],
        "float" => &[
            "as_integer_ratio",
            "conjugate",
            "fromhex",
            "hex",
            "imag",
            "is_integer",
            "real",
        ],
        "frozenset" => &[
            "copy",
            "difference",
            "intersection",
            "isdisjoint",
            "issubset",
            "issuperset",
            "symmetric_difference",
            "union",
        ],
        "list" => &[
            "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove",
            "reverse", "sort",
        ],
        "memoryview" => &[
            "c_contiguous",
            "cast",
            "contiguous",
            "f_contiguous",
            "format",
            "hex",
            "itemsize",
            "nbytes",
            "ndim",
            "obj",
            "readonly",
            "release",
            "shape",
            "strides",
            "suboffsets",
            "tobytes",
            "tolist",
            "toreadonly",
        ],
        "property" => &["deleter", "fdel", "fget", "fset", "getter", "setter"],
        "range" => &["count", "index", "start", "step", "stop"],
        "set" => &[
            "add",
            "clear",
            "copy",
            "difference",
            "difference_update",
            "discard",
            "intersection",
            "intersection_update",
            "isdisjoint",
            "issubset",
            "issuperset",
            "pop",
            "remove",
            "symmetric_difference",
            "symmetric_difference_update",
            "union",
            "update",
        ],
        "slice" => &["indices", "start", "step", "stop"],
        "str" => &[
            "capitalize",
            "casefold",
            "center",
            "count",
            "encode",
            "endswith",
            "expandtabs",
            "find",
            "format",
            "format_map",
            "index",
            "isalnum",
            "isalpha",
            "isascii",
            "isdecimal",
            "isdigit",
            "isidentifier",
            "islower",
            "isnumeric",
            "isprintable",
            "isspace",
            "istitle",
            "isupper",
            "join",
            "ljust",
            "lower",
            "lstrip",
            "maketrans",
            "partition",
            "removeprefix",
            "removesuffix",
            "replace",
            "rfind",
            "rindex",
            "rjust",
            "rpartition",
            "rsplit",
            "rstrip",
            "split",
            "splitlines",
            "startswith",
            "strip",
            "swapcase",
            "title",
            "translate",
            "upper",
            "zfill",
        ],
        "tuple" => &["count", "index"],
        "type" => &["mro"],
        _ => return None,
    })
}
