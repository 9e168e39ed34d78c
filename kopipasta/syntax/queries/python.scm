; Definitions kopipasta can target in Python.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; A node captured by several patterns keeps the kind of the first one.
; @overload marks a signature-only stub that belongs to the next definition of
; the same name (PROTOCOL.md §4, "Overloads").

; The decorator, `overload` or `x.overload`, is checked by #decorated-as-overload?
; (languages.py): the nested (decorator [(identifier) (attribute …)]) with #match? costs
; ~0.8 ms of query compilation in every process that lists Python (issue 9).
((decorated_definition
   definition: (function_definition name: (identifier) @name)) @overload
  (#decorated-as-overload? @overload))

(function_definition name: (identifier) @name) @definition.function

(class_definition name: (identifier) @name) @definition.class

(type_alias_statement left: (type (identifier) @name)) @definition.type

(assignment left: (identifier) @name) @definition.variable
