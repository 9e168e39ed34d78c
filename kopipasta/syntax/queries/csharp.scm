; Definitions kopipasta can target in C#.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; An interface's methods are methods, with or without a body.

(class_declaration name: (identifier) @name (#structure-in-python!)) @definition.class
(struct_declaration name: (identifier) @name (#structure-in-python!)) @definition.struct
(interface_declaration name: (identifier) @name (#structure-in-python!)) @definition.interface
(enum_declaration name: (identifier) @name (#structure-in-python!)) @definition.enum
(record_declaration name: (identifier) @name (#structure-in-python!)) @definition.record
(namespace_declaration name: [(identifier) (qualified_name)] @name (#structure-in-python!)) @definition.module
(delegate_declaration name: (identifier) @name (#structure-in-python!)) @definition.type

(method_declaration name: (identifier) @name (#structure-in-python!)) @definition.method
(constructor_declaration name: (identifier) @name (#structure-in-python!)) @definition.constructor
(destructor_declaration name: (identifier) @name (#structure-in-python!)) @definition.method
(property_declaration name: (identifier) @name (#structure-in-python!)) @definition.property
(event_declaration name: (identifier) @name (#structure-in-python!)) @definition.property

; A field declaring one name; `private int a, b;` is not a definition.
(field_declaration (variable_declaration (variable_declarator) "," (variable_declarator)) (#structure-in-python!)) @not_definition
(event_field_declaration (variable_declaration (variable_declarator) "," (variable_declarator)) (#structure-in-python!)) @not_definition
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name)) (#structure-in-python!)) @definition.variable
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name)) (#structure-in-python!)) @definition.variable
