; Definitions kopipasta can target in Java.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; An interface's methods are methods, with or without a body.

(class_declaration name: (identifier) @name (#structure-in-python!)) @definition.class
(interface_declaration name: (identifier) @name (#structure-in-python!)) @definition.interface
(annotation_type_declaration name: (identifier) @name (#structure-in-python!)) @definition.interface
(enum_declaration name: (identifier) @name (#structure-in-python!)) @definition.enum @also.class
(record_declaration name: (identifier) @name (#structure-in-python!)) @definition.record

(interface_body (method_declaration name: (identifier) @name) @definition.method (#structure-in-python!))
(class_body (method_declaration name: (identifier) @name) @definition.method (#structure-in-python!))
(enum_body_declarations (method_declaration name: (identifier) @name) @definition.method (#structure-in-python!))
(constructor_declaration name: (identifier) @name (#structure-in-python!)) @definition.constructor
(compact_constructor_declaration name: (identifier) @name (#structure-in-python!)) @definition.constructor

; A field declaring one name; `private int a, b;` is not a definition.
(field_declaration declarator: (_) "," declarator: (_) (#structure-in-python!)) @not_definition
(constant_declaration declarator: (_) "," declarator: (_) (#structure-in-python!)) @not_definition
(class_body (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable (#structure-in-python!))
(enum_body_declarations (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable (#structure-in-python!))
(interface_body (constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.variable (#structure-in-python!))
