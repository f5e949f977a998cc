; The outline of a Go file, in the tags convention: @definition.<kind>
; around an element, @name on its name. When two patterns find one
; element, the first wins. The ranges, the nesting and a method's
; receiver type come from src/language/go.rs and braces.rs.

; functions, and methods by their receiver type
(function_declaration
  name: (identifier) @name) @definition.function
(method_declaration
  name: (field_identifier) @name) @definition.method

; types: structs, interfaces, the others (named types), aliases
(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct
(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface
(type_spec
  name: (type_identifier) @name) @definition.type
(type_alias
  name: (type_identifier) @name) @definition.type

; a struct's named fields, an interface's methods
(field_declaration_list
  (field_declaration
    name: (field_identifier) @name) @definition.field)
(interface_type
  (method_elem
    name: (field_identifier) @name) @definition.method)

; package-level variables and constants (each name its own)
(source_file
  (var_declaration
    (var_spec
      name: (identifier) @name) @definition.variable))
(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.variable)))
; (each name of `const a, b = 1, 2`: the grammar's `name` field spans
; the names and their commas, so `name:` would match the first alone)
(source_file
  (const_declaration
    (const_spec
      (identifier) @name) @definition.constant))
