; Definitions kopipasta can target in C.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> on the same node for a second kind that fits it.
; Only definitions with a body count: a prototype (`int add(int, int);`) or a
; forward declaration (`struct node;`) is not a target.

; The function_definition node starts at its return type and storage class,
; even when they stand on the line above the name (`static int\nadd(...)`).
(function_definition
  declarator: (function_declarator declarator: (identifier) @name) (#structure-in-python!)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name)) (#structure-in-python!)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name))) (#structure-in-python!)) @definition.function

; typedef struct { … } Name;  is a type and a struct.
(type_definition
  type: (struct_specifier body: (field_declaration_list))
  declarator: (type_identifier) @name (#structure-in-python!)) @definition.type @also.struct
(type_definition
  type: (enum_specifier body: (enumerator_list))
  declarator: (type_identifier) @name (#structure-in-python!)) @definition.type @also.enum
(type_definition
  type: (union_specifier body: (field_declaration_list))
  declarator: (type_identifier) @name (#structure-in-python!)) @definition.type @also.union
(type_definition declarator: (type_identifier) @name (#structure-in-python!)) @definition.type

(struct_specifier name: (type_identifier) @name body: (field_declaration_list) (#structure-in-python!)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) (#structure-in-python!)) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list) (#structure-in-python!)) @definition.enum
