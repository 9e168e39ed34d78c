; Definitions kopipasta can target in TypeScript and TSX.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; A node captured by several patterns keeps the kind of the first one, so the
; function-valued declarations come before the plain variables.
; @overload marks an overload signature: it belongs to the next definition of
; the same name, the one with a body (PROTOCOL.md §4, "Overloads").

(function_signature name: (identifier) @name (#structure-in-python!)) @overload
(class_body (method_signature name: [(property_identifier) (private_property_identifier)] @name) @overload (#structure-in-python!))

(function_declaration name: (identifier) @name (#structure-in-python!)) @definition.function
(generator_function_declaration name: (identifier) @name (#structure-in-python!)) @definition.function

(class_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.class
(abstract_class_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.class

(interface_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.interface
(type_alias_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.type
(enum_declaration name: (identifier) @name (#structure-in-python!)) @definition.enum
(internal_module name: [(identifier) (nested_identifier)] @name (#structure-in-python!)) @definition.module
(module name: [(identifier) (nested_identifier)] @name (#structure-in-python!)) @definition.module

; Only class members: a method in an object literal is a value, not a definition.
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method (#structure-in-python!))
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name (#structure-in-python!)) @definition.method

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)] (#structure-in-python!)) @definition.method

; Only a declaration of one name is a definition: `const a = 1, b = 2` is not.
; The wrapper's first argument is checked by #first-argument-is? (languages.py): a nested
; (call_expression arguments: …) pattern costs milliseconds of query compilation (issue 9).
; const X = () => …, const X = function …, const X = memo(() => …), forwardRef(function …)
(lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function)
            (function_expression)
            (generator_function)
            (call_expression) @_call]
    (#first-argument-is? @_call arrow_function function_expression))
  .) @definition.function
(variable_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function)
            (function_expression)
            (generator_function)
            (call_expression) @_call]
    (#first-argument-is? @_call arrow_function function_expression))
  .) @definition.function

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name (#structure-in-python!)) @definition.variable

(lexical_declaration . (variable_declarator name: (identifier) @name) .) @definition.variable
(variable_declaration . (variable_declarator name: (identifier) @name) .) @definition.variable
