; The outline of a TypeScript (or TSX) file, in the tags convention:
; @definition.<kind> around an element, @name on its name. When two
; patterns find one element, the first wins: a name bound to a function
; is a function, not a variable. The ranges, the nesting and what a kind
; adds (static, get/set, async) come from src/language/javascript.rs, as
; for JavaScript, whose patterns these extend with TypeScript's
; declarations (overloads, abstract classes, interfaces, type aliases,
; enums, namespaces) and members (signatures, interface members).

; functions: declarations, overload signatures, and function values bound
; to a name
(function_declaration
  name: (identifier) @name) @definition.function
(generator_function_declaration
  name: (identifier) @name) @definition.function
(function_signature
  name: (identifier) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; a name bound to the function a wrapper returns, the wrapper named by its
; callee's last name (`const Button = memo((props) => …)`, `forwardRef`,
; `useCallback`, `observer`, `debounce`, `throttle`, `once`, `memoize`),
; a wrapper's wrapper too (`memo(forwardRef(…))`), three deep at most
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: [(identifier) @_w1
               (member_expression property: (property_identifier) @_w1)]
    arguments: (arguments . [(arrow_function) (function_expression) (generator_function)]))
  (#match? @_w1 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: [(identifier) @_w1
               (member_expression property: (property_identifier) @_w1)]
    arguments: (arguments . (call_expression
    function: [(identifier) @_w2
               (member_expression property: (property_identifier) @_w2)]
    arguments: (arguments . [(arrow_function) (function_expression) (generator_function)]))))
  (#match? @_w1 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")
  (#match? @_w2 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: [(identifier) @_w1
               (member_expression property: (property_identifier) @_w1)]
    arguments: (arguments . (call_expression
    function: [(identifier) @_w2
               (member_expression property: (property_identifier) @_w2)]
    arguments: (arguments . (call_expression
    function: [(identifier) @_w3
               (member_expression property: (property_identifier) @_w3)]
    arguments: (arguments . [(arrow_function) (function_expression) (generator_function)]))))))
  (#match? @_w1 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")
  (#match? @_w2 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")
  (#match? @_w3 "^(memo|forwardRef|useCallback|observer|debounce|throttle|once|memoize)$")) @definition.function

; classes and the other types code targets name as classes
(class_declaration
  name: (type_identifier) @name) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name) @definition.class
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class
(interface_declaration
  name: (type_identifier) @name) @definition.interface
(type_alias_declaration
  name: (type_identifier) @name) @definition.type
(enum_declaration
  name: (identifier) @name) @definition.enum
; an enum's members (`Red`, `Green = "g"`)
(enum_body
  (property_identifier) @name @definition.field)
(enum_body
  (enum_assignment
    name: (property_identifier) @name) @definition.field)
(internal_module
  name: (identifier) @name) @definition.namespace

; class members: methods (getters and setters too), their signatures,
; fields whose value is a function, other fields
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (abstract_method_signature
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (public_field_definition
    name: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
(class_body
  (public_field_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.field)

; a constructor's parameter properties (`constructor(private x: T)`):
; fields of the class
(class_body
  (method_definition
    parameters: (formal_parameters
      (required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.field)))
(class_body
  (method_definition
    parameters: (formal_parameters
      (required_parameter (override_modifier) pattern: (identifier) @name) @definition.field)))
(class_body
  (method_definition
    parameters: (formal_parameters
      (required_parameter "readonly" pattern: (identifier) @name) @definition.field)))
(class_body
  (method_definition
    parameters: (formal_parameters
      (optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.field)))
(class_body
  (method_definition
    parameters: (formal_parameters
      (optional_parameter (override_modifier) pattern: (identifier) @name) @definition.field)))
(class_body
  (method_definition
    parameters: (formal_parameters
      (optional_parameter "readonly" pattern: (identifier) @name) @definition.field)))

; interface members
(interface_body
  (method_signature
    name: (property_identifier) @name) @definition.method)
(interface_body
  (property_signature
    name: (property_identifier) @name) @definition.property)

; module-level bindings (a destructuring pattern binds each of its names)
(program
  (lexical_declaration
    (variable_declarator name: (_) @name) @definition.variable))
(program
  (variable_declaration
    (variable_declarator name: (_) @name) @definition.variable))
(program
  (export_statement
    declaration: (lexical_declaration
      (variable_declarator name: (_) @name) @definition.variable)))
(program
  (export_statement
    declaration: (variable_declaration
      (variable_declarator name: (_) @name) @definition.variable)))

; a namespace's bindings (`namespace N { export const x = 1 }`)
(internal_module
  body: (statement_block
    (lexical_declaration
      (variable_declarator name: (_) @name) @definition.variable)))
(internal_module
  body: (statement_block
    (variable_declaration
      (variable_declarator name: (_) @name) @definition.variable)))
(internal_module
  body: (statement_block
    (export_statement
      declaration: (lexical_declaration
        (variable_declarator name: (_) @name) @definition.variable))))
(internal_module
  body: (statement_block
    (export_statement
      declaration: (variable_declaration
        (variable_declarator name: (_) @name) @definition.variable))))

; CommonJS: a function or a class written in place as a key of the
; module's exports by a statement of the module (`exports.f = function ()
; {}`, `module.exports.C = class {}`): the key names it
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_exports
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (#eq? @_exports "exports"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_exports
        property: (property_identifier) @name)
      right: (class)) @definition.class)
  (#eq? @_exports "exports"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_module
          property: (property_identifier) @_exports)
        property: (property_identifier) @name)
      right: (class)) @definition.class)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; ... and as a key of the object `module.exports = { … }` assigns
; (`parse(s) {}`, `format: function (o) {}`, `Box: class {}`)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_module
        property: (property_identifier) @_exports)
      right: (object
        (method_definition
          name: (property_identifier) @name) @definition.function)))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_module
        property: (property_identifier) @_exports)
      right: (object
        (pair
          key: (property_identifier) @name
          value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_module
        property: (property_identifier) @_exports)
      right: (object
        (pair
          key: (property_identifier) @name
          value: (class)) @definition.class)))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; a function written on another module-level name or on its prototype by a
; statement of the module (`Route.prototype.dispatch = function () {}`,
; `app.init = function init() {}`): a method of that name, the pre-class
; way (not `module`'s nor `exports`': those are the exports' keys)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_owner
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
  (#not-match? @_owner "^(module|exports)$"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          object: (identifier) @_owner
          property: (property_identifier) @_prototype)
        property: (property_identifier) @name)
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
  (#not-match? @_owner "^(module|exports)$")
  (#eq? @_prototype "prototype"))
; ... and in the object a module-level `Route.prototype = { … }` assigns
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_owner
        property: (property_identifier) @_prototype)
      right: (object
        (method_definition
          name: (property_identifier) @name) @definition.method)))
  (#not-match? @_owner "^(module|exports)$")
  (#eq? @_prototype "prototype"))
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (identifier) @_owner
        property: (property_identifier) @_prototype)
      right: (object
        (pair
          key: (property_identifier) @name
          value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)))
  (#not-match? @_owner "^(module|exports)$")
  (#eq? @_prototype "prototype"))
