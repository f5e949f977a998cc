; The references of a TypeScript file (TSX adds tsx.scm) for the project index, in
; the tags convention (tree-sitter-javascript's queries/tags.scm, widened
; from calls to every use): @reference.call on a callee's name,
; @reference.name on any other use, @reference.member on a property read
; through @reference.object; and, as locals.scm does, @local.scope around
; a scope and @local.definition on a name it binds, which hides a
; module-level name of the same spelling inside it (`.var`: in the
; function around it; `.outer`: in the scope around its declaration). Imports and exports
; are read by the resolver (analysis/index/tags/es.rs). The first pattern
; that captures a node wins.

; calls and constructions
(call_expression
  function: (identifier) @reference.call)
(new_expression
  constructor: (identifier) @reference.call)
(call_expression
  function: (member_expression
    object: (_) @reference.object
    property: [(property_identifier) (private_property_identifier)] @reference.call))
(new_expression
  constructor: (member_expression
    object: (_) @reference.object
    property: (property_identifier) @reference.call))

; other uses
(member_expression
  object: (_) @reference.object
  property: [(property_identifier) (private_property_identifier)] @reference.member)
(identifier) @reference.name
(shorthand_property_identifier) @reference.name

; scopes: functions (their parameters and `var`s) and blocks (`let`,
; `const`, `class`, `function` in a block)
[
  (function_declaration)
  (function_expression)
  (generator_function_declaration)
  (generator_function)
  (arrow_function)
  (method_definition)
  (statement_block)
  (for_statement)
  (for_in_statement)
  (catch_clause)
  (class_body)
] @local.scope

; names bound in a scope
(arrow_function parameter: (identifier) @local.definition)
(variable_declaration (variable_declarator name: (identifier) @local.definition.var))
(variable_declarator name: (identifier) @local.definition)
(object_pattern (shorthand_property_identifier_pattern) @local.definition)
(object_pattern (pair_pattern value: (identifier) @local.definition))
(array_pattern (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(for_in_statement left: (identifier) @local.definition)
(statement_block (function_declaration name: (identifier) @local.definition.outer))
(statement_block (class_declaration name: (type_identifier) @local.definition))

; TypeScript: types named, parameters with types
(type_identifier) @reference.name
(nested_type_identifier
  module: (identifier) @reference.object
  name: (type_identifier) @reference.member)
(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
(required_parameter pattern: (rest_pattern (identifier) @local.definition))

; an export's alias names no use
(export_specifier alias: (_) @reference.skip)
