; Definitions kopipasta can target in Rust.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @also.<kind> for further kinds it fits. A node captured by several patterns
; keeps the kind of the first one.
; An `impl Type` / `impl Trait for Type` block is named by its type, so its
; functions are `Type.method` (PROTOCOL.md §4). A trait's function without a
; body is a member of the trait (like a TS interface member), not a target.

(function_item name: (identifier) @name (#structure-in-python!)) @definition.function

(struct_item name: (type_identifier) @name (#structure-in-python!)) @definition.struct @also.type
(union_item name: (type_identifier) @name (#structure-in-python!)) @definition.struct @also.type
(enum_item name: (type_identifier) @name (#structure-in-python!)) @definition.enum @also.type
(trait_item name: (type_identifier) @name (#structure-in-python!)) @definition.trait @also.interface
(type_item name: (type_identifier) @name (#structure-in-python!)) @definition.type
(mod_item name: (identifier) @name body: (declaration_list) (#structure-in-python!)) @definition.module
(macro_definition name: (identifier) @name (#structure-in-python!)) @definition.macro

; `impl Trait for Type` is `@secondary`: `impl Type` means the inherent impl when
; there is one (`impl Type#2` reaches the others, in file order). Its trait is its
; `@detail`: a payload for one impl that is another impl of the type fails.
(impl_item
  trait: (_) @detail
  type: [(type_identifier) @name
         (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
         (scoped_type_identifier name: (type_identifier) @name)
         (reference_type type: [(type_identifier) @name (generic_type type: (type_identifier) @name)])] (#structure-in-python!)) @definition.impl @secondary
(impl_item
  type: [(type_identifier) @name
         (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
         (scoped_type_identifier name: (type_identifier) @name)
         (reference_type type: [(type_identifier) @name (generic_type type: (type_identifier) @name)])] (#structure-in-python!)) @definition.impl

(const_item name: (identifier) @name (#structure-in-python!)) @definition.variable
(static_item name: (identifier) @name (#structure-in-python!)) @definition.variable
