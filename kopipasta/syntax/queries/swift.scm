; Definitions kopipasta can target in Swift.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; `struct`, `class`, `actor`, `enum` and `extension` are all class_declaration
; nodes; the keyword says which. An extension is named by the type it extends,
; so its methods are `Type.method`; it gives way (@secondary) to the type itself
; when both are in the file. `init` is a constructor named `init`.

(class_declaration declaration_kind: "struct" name: (type_identifier) @name (#structure-in-python!)) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name (#structure-in-python!)) @definition.enum
(class_declaration declaration_kind: "extension"
  name: [(user_type (type_identifier) @name)
         (user_type (type_identifier) (type_identifier) @name)] (#structure-in-python!)) @definition.extension @secondary
(class_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.class
(protocol_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.interface
(typealias_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.type

(function_declaration name: (simple_identifier) @name (#structure-in-python!)) @definition.function
(protocol_function_declaration name: (simple_identifier) @name (#structure-in-python!)) @definition.method
(init_declaration "init" @name (#structure-in-python!)) @definition.constructor
(deinit_declaration "deinit" @name (#structure-in-python!)) @definition.method
(subscript_declaration "subscript" @name (#structure-in-python!)) @definition.method

; `let`/`var` of one name; in a function body it is a local.
(property_declaration name: (pattern (simple_identifier) @name) (#structure-in-python!)) @definition.property
(protocol_property_declaration name: (pattern (simple_identifier) @name) (#structure-in-python!)) @definition.property
