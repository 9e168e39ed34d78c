; Definitions kopipasta can target in PHP.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; Attributes (`#[Route('/users')]`) are inside the node: LanguageSpec.prefix_types.

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
; Only a braced namespace holds its definitions; `namespace App\Http;` does not.
(namespace_definition name: (namespace_name) @name body: (compound_statement)) @definition.module

; Properties and constants: `protected $fillable = [...]` is `fillable`. A declaration of
; several (`private $a, $b;`) names no one definition (@not_definition).
(property_declaration (property_element) (property_element)) @not_definition
(const_declaration (const_element) (const_element)) @not_definition
(property_declaration (property_element name: (variable_name (name) @name))) @definition.variable
(const_declaration (const_element (name) @name)) @definition.variable
