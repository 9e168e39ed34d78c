; Definitions kopipasta can target in Scala (2 and 3).
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; A `case class` is a class; an `object` is an object (it fits `class` too); a
; `def` declared without a body (in a trait) is a method all the same.

(class_definition name: (identifier) @name (#structure-in-python!)) @definition.class
(object_definition name: (identifier) @name (#structure-in-python!)) @definition.object
(trait_definition name: (identifier) @name (#structure-in-python!)) @definition.trait @also.interface
(enum_definition name: (identifier) @name (#structure-in-python!)) @definition.enum
(type_definition name: (type_identifier) @name (#structure-in-python!)) @definition.type
(package_object name: (identifier) @name (#structure-in-python!)) @definition.object

(function_definition name: (identifier) @name (#structure-in-python!)) @definition.function
(function_declaration name: (identifier) @name (#structure-in-python!)) @definition.function

; `val x = …` of one name; `val (a, b) = …` and `val a, b = …` are not definitions.
(val_definition pattern: (identifier) @name (#structure-in-python!)) @definition.variable
(var_definition pattern: (identifier) @name (#structure-in-python!)) @definition.variable
(val_declaration name: (identifier) @name (#structure-in-python!)) @definition.variable
(var_declaration name: (identifier) @name (#structure-in-python!)) @definition.variable
(given_definition name: (identifier) @name (#structure-in-python!)) @definition.variable
