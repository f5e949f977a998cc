; The references of a Rust file for the project index, in the tags
; convention (tree-sitter-rust's queries/tags.scm, widened from calls to
; every use): @reference.call on a callee's name, @reference.name on any
; other use, @reference.member on a field or method read through
; @reference.object, @reference.path on the last name of a path
; (`a::b::f`, `Type::new`) whose @reference.qualifier is the rest;
; @local.scope and @local.definition for the names a function binds. The
; `use` declarations and `mod` items are read by the resolver
; (analysis/index/tags/rust.rs).

(call_expression
  function: (identifier) @reference.call)
(call_expression
  function: (field_expression
    value: (_) @reference.object
    field: (field_identifier) @reference.call))
(call_expression
  function: (scoped_identifier
    path: (_) @reference.qualifier
    name: (identifier) @reference.call))
(scoped_identifier
  path: (_) @reference.qualifier
  name: (identifier) @reference.path)
(scoped_type_identifier
  path: (_) @reference.qualifier
  name: (type_identifier) @reference.path)
(field_expression
  value: (_) @reference.object
  field: (field_identifier) @reference.member)
(struct_expression
  name: (type_identifier) @reference.call)
(identifier) @reference.name
(type_identifier) @reference.name

[
  (function_item)
  (closure_expression)
  (block)
  (for_expression)
  (match_arm)
  (if_expression)
  (while_expression)
] @local.scope

(parameter pattern: (identifier) @local.definition)
(let_declaration pattern: (identifier) @local.definition)
(tuple_pattern (identifier) @local.definition)
(closure_parameters (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(let_condition pattern: (_ (identifier) @local.definition))
(tuple_struct_pattern (identifier) @local.definition)
(field_pattern (identifier) @local.definition)
(shorthand_field_identifier) @reference.name
(field_pattern name: (shorthand_field_identifier) @local.definition)
