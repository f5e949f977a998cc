; What TSX adds to typescript/index.scm: elements named by a component.
(jsx_opening_element name: (identifier) @reference.call)
(jsx_self_closing_element name: (identifier) @reference.call)
