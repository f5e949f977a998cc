; The outline of a Java file, in the tags convention: @definition.<kind>
; around an element, @name on its name. The ranges and the nesting come
; from src/language/java.rs and braces.rs.

; types: classes, interfaces, enums, records, annotation types
(class_declaration
  name: (identifier) @name) @definition.class
(interface_declaration
  name: (identifier) @name) @definition.interface
(enum_declaration
  name: (identifier) @name) @definition.enum
(record_declaration
  name: (identifier) @name) @definition.record
(annotation_type_declaration
  name: (identifier) @name) @definition.annotation

; methods and constructors, an annotation type's elements
(method_declaration
  name: (identifier) @name) @definition.method
(constructor_declaration
  name: (identifier) @name) @definition.constructor
(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

; fields (each declarator its own), a record's components, interface
; constants, enum constants
(field_declaration
  declarator: (variable_declarator
    name: (identifier) @name) @definition.field)
(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      name: (identifier) @name) @definition.field))
(record_declaration
  parameters: (formal_parameters
    (spread_parameter
      (variable_declarator
        name: (identifier) @name) @definition.field)))
(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name) @definition.field)
(enum_constant
  name: (identifier) @name) @definition.constant
