; Definitions kopipasta can target in C++.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for a second kind that fits, and @scope on qualifiers written in
; the definition itself: `void Shape::draw()` is the method `Shape.draw`
; (`a::B::f` gives the scope a.B). Only definitions with a body count: a
; prototype or an in-class declaration (`void draw();`) is not a target, so
; a class and its out-of-class methods in one file are never ambiguous.

; Out-of-class methods: Class::method, ns::Class::method, Class<T>::method.
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @scope
      name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) (#structure-in-python!)) @definition.method
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @scope
      name: (qualified_identifier
        scope: (_) @scope
        name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) (#structure-in-python!)) @definition.method
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @scope
      name: (qualified_identifier
        scope: (_) @scope
        name: (qualified_identifier
          scope: (_) @scope
          name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))) (#structure-in-python!)) @definition.method
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier
      scope: (_) @scope
      name: (qualified_identifier
        scope: (_) @scope
        name: (qualified_identifier
          scope: (_) @scope
          name: (qualified_identifier
            scope: (_) @scope
            name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))))) (#structure-in-python!)) @definition.method
(function_definition
  declarator: [(pointer_declarator) (reference_declarator)
    (function_declarator
      declarator: (qualified_identifier
        scope: (_) @scope
        name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))] (#structure-in-python!)) @definition.method
(function_definition
  declarator: (_
    (function_declarator
      declarator: (qualified_identifier
        scope: (_) @scope
        name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) (#structure-in-python!)) @definition.method

; Functions, and methods defined in their class body (a function inside a class is a method).
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) (#structure-in-python!)) @definition.function
(function_definition
  declarator: (_
    (function_declarator
      declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) (#structure-in-python!)) @definition.function
(function_definition
  declarator: (_
    (_
      (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name))) (#structure-in-python!)) @definition.function

(class_specifier name: (type_identifier) @name body: (field_declaration_list) (#structure-in-python!)) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) (#structure-in-python!)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) (#structure-in-python!)) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list) (#structure-in-python!)) @definition.enum

(namespace_definition name: (namespace_identifier) @name (#structure-in-python!)) @definition.module
; namespace a::b { … } is the namespace b inside a.
(namespace_definition
  name: (nested_namespace_specifier
    (namespace_identifier) @scope
    .
    (namespace_identifier) @name .)) @definition.module
(namespace_definition
  name: (nested_namespace_specifier
    (namespace_identifier) @scope
    .
    (nested_namespace_specifier (namespace_identifier) @scope . (namespace_identifier) @name .) .)) @definition.module

(type_definition
  type: (struct_specifier body: (field_declaration_list))
  declarator: (type_identifier) @name (#structure-in-python!)) @definition.type @also.struct
(type_definition declarator: (type_identifier) @name (#structure-in-python!)) @definition.type
(alias_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.type
