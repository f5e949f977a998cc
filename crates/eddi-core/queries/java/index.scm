; The references of a Java file for the project index, in the tags
; convention (tree-sitter-java's queries/tags.scm, widened from calls to
; every use): @reference.call on an invoked method's or a constructed
; class's name, @reference.name on any other use, @reference.member on a
; field or method read through @reference.object; @local.scope and
; @local.definition for the names a method's body binds. The package and
; the imports are read by the resolver (analysis/index/tags/java.rs).

(method_invocation
  object: (_) @reference.object
  name: (identifier) @reference.call)
(method_invocation
  name: (identifier) @reference.call)
(object_creation_expression
  type: (type_identifier) @reference.call)
(field_access
  object: (_) @reference.object
  field: (identifier) @reference.member)
(scoped_type_identifier
  (type_identifier) @reference.object
  (type_identifier) @reference.member)
(method_reference
  (_) @reference.object
  (identifier) @reference.member)
(identifier) @reference.name
(type_identifier) @reference.name

[
  (method_declaration)
  (constructor_declaration)
  (lambda_expression)
  (block)
  (for_statement)
  (enhanced_for_statement)
  (catch_clause)
] @local.scope

(formal_parameter name: (identifier) @local.definition)
(spread_parameter (variable_declarator name: (identifier) @local.definition))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition))
(enhanced_for_statement name: (identifier) @local.definition)
(catch_formal_parameter name: (identifier) @local.definition)
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)
