; The outline of a Rust file, in the tags convention: @definition.<kind>
; around an element, @name on its name. When two patterns find one
; element, the first wins: a function in an impl or a trait is a method.
; The ranges, the nesting and an impl method's type and trait come from
; src/language/rust.rs and braces.rs.

; methods: of impl blocks (by the impl's type), of traits
(impl_item
  body: (declaration_list
    (function_item
      name: (identifier) @name) @definition.method))
(trait_item
  body: (declaration_list
    [(function_item name: (identifier) @name)
     (function_signature_item name: (identifier) @name)] @definition.method))

; functions (also in modules, in functions, in extern blocks)
(function_item
  name: (identifier) @name) @definition.function
(function_signature_item
  name: (identifier) @name) @definition.function

; types, traits and modules
(struct_item
  name: (type_identifier) @name) @definition.struct
(enum_item
  name: (type_identifier) @name) @definition.enum
(union_item
  name: (type_identifier) @name) @definition.union
(trait_item
  name: (type_identifier) @name) @definition.trait
(mod_item
  name: (identifier) @name
  body: (declaration_list)) @definition.module
(source_file
  (type_item
    name: (type_identifier) @name) @definition.type)
(mod_item
  body: (declaration_list
    (type_item
      name: (type_identifier) @name) @definition.type))

; a struct's (or union's) named fields, an enum's variants
(field_declaration_list
  (field_declaration
    name: (field_identifier) @name) @definition.field)
(enum_variant_list
  (enum_variant
    name: (identifier) @name) @definition.variant)

; constants and statics of the crate's modules
(source_file
  (const_item
    name: (identifier) @name) @definition.constant)
(source_file
  (static_item
    name: (identifier) @name) @definition.static)
(mod_item
  body: (declaration_list
    (const_item
      name: (identifier) @name) @definition.constant))
(mod_item
  body: (declaration_list
    (static_item
      name: (identifier) @name) @definition.static))
