; Definitions kopipasta can target in PHP.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; Attributes (`#[Route('/users')]`) are inside the node: LanguageSpec.prefix_types.

(class_declaration name: (name) @name (#structure-in-python!)) @definition.class
(interface_declaration name: (name) @name (#structure-in-python!)) @definition.interface
(trait_declaration name: (name) @name (#structure-in-python!)) @definition.trait
(enum_declaration name: (name) @name (#structure-in-python!)) @definition.enum
(function_definition name: (name) @name (#structure-in-python!)) @definition.function
(method_declaration name: (name) @name (#structure-in-python!)) @definition.method
; Only a braced namespace holds its definitions; `namespace App\Http;` does not.
(namespace_definition name: (namespace_name) @name body: (compound_statement) (#structure-in-python!)) @definition.module

; Properties and constants: `protected $fillable = [...]` is `fillable`. A declaration of
; several (`private $a, $b;`) names no one definition (@not_definition).
(property_declaration (property_element) (property_element) (#structure-in-python!)) @not_definition
(const_declaration (const_element) (const_element) (#structure-in-python!)) @not_definition
(property_declaration (property_element name: (variable_name (name) @name)) (#structure-in-python!)) @definition.variable
(const_declaration (const_element (name) @name) (#structure-in-python!)) @definition.variable
