; Definitions kopipasta can target in Kotlin.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @scope on an extension function's receiver type (`fun String.shout()` is
; the method `String.shout`), @also.<kind> for further kinds it fits. A node captured by
; several patterns keeps the kind of the first one.
; An interface's methods are methods, with or without a body. A property's
; `get()`/`set` beside it belong to it (LanguageSpec.suffix_types).

(class_declaration "interface" (type_identifier) @name (#structure-in-python!)) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body) (#structure-in-python!)) @definition.enum @also.class
(class_declaration (type_identifier) @name (#structure-in-python!)) @definition.class
(object_declaration (type_identifier) @name (#structure-in-python!)) @definition.object
(companion_object (type_identifier) @name (#structure-in-python!)) @definition.object
(type_alias (type_identifier) @name (#structure-in-python!)) @definition.type

(function_declaration
  (receiver_type [(user_type (type_identifier) @scope) (nullable_type (user_type (type_identifier) @scope))])
  (simple_identifier) @name (#structure-in-python!)) @definition.method
(function_declaration (simple_identifier) @name (#structure-in-python!)) @definition.function
(secondary_constructor "constructor" @name (#structure-in-python!)) @definition.constructor

(property_declaration (variable_declaration (simple_identifier) @name) (#structure-in-python!)) @definition.property
