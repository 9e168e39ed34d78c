; Definitions kopipasta can target in Java.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; An interface's methods are methods, with or without a body.

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum @also.class
(record_declaration name: (identifier) @name) @definition.record

(interface_body (method_declaration name: (identifier) @name) @definition.method)
(class_body (method_declaration name: (identifier) @name) @definition.method)
(enum_body_declarations (method_declaration name: (identifier) @name) @definition.method)
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

; A field declaring one name; `private int a, b;` is not a definition.
(field_declaration declarator: (_) "," declarator: (_)) @not_definition
(constant_declaration declarator: (_) "," declarator: (_)) @not_definition
(class_body (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable)
(enum_body_declarations (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable)
(interface_body (constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable)
