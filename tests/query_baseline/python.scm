; Definitions kopipasta can target in Python.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; A node captured by several patterns keeps the kind of the first one.
; @overload marks a signature-only stub that belongs to the next definition of
; the same name (PROTOCOL.md §4, "Overloads").

(decorated_definition
  (decorator [(identifier) (attribute attribute: (identifier))] @_decorator
    (#match? @_decorator "(^|\\.)overload$"))
  definition: (function_definition name: (identifier) @name)) @overload

(function_definition name: (identifier) @name) @definition.function

(class_definition name: (identifier) @name) @definition.class

(type_alias_statement left: (type (identifier) @name)) @definition.type

(assignment left: (identifier) @name) @definition.variable
