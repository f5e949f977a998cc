; The references of a Go file for the project index, in the tags
; convention (tree-sitter-go's queries/tags.scm, widened from calls to
; every use): @reference.call on a callee's name, @reference.name on any
; other use, @reference.member on a selector's field read through
; @reference.object (a package, or a value whose type may be declared);
; @local.scope and @local.definition as locals.scm has them. Imports and
; the package clause are read by the resolver (analysis/index/tags/go.rs).

(call_expression
  function: (identifier) @reference.call)
(call_expression
  function: (selector_expression
    operand: (_) @reference.object
    field: (field_identifier) @reference.call))
(selector_expression
  operand: (_) @reference.object
  field: (field_identifier) @reference.member)
(qualified_type
  package: (package_identifier) @reference.object
  name: (type_identifier) @reference.member)
(identifier) @reference.name
(type_identifier) @reference.name
(composite_literal type: (type_identifier) @reference.call)

[
  (function_declaration)
  (method_declaration)
  (func_literal)
  (block)
  (for_statement)
  (if_statement)
  (expression_switch_statement)
  (type_switch_statement)
] @local.scope

(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration name: (identifier) @local.definition)
(short_var_declaration left: (expression_list (identifier) @local.definition))
(var_spec name: (identifier) @local.definition)
(const_spec name: (identifier) @local.definition)
(range_clause left: (expression_list (identifier) @local.definition))
(type_switch_statement alias: (expression_list (identifier) @local.definition))
