; Definitions kopipasta can target in Go.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @scope on a method's receiver type (it names the method: `Server.ServeHTTP`),
; @also.<kind> for further kinds the definition fits. A node captured by
; several patterns keeps the kind of the first one.
; A declaration of one spec is the definition (`type Server struct {…}`, so a
; payload that restates `type` replaces all of it); in a group
; (`type ( … )`, `const ( … )`) each spec is one.

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @scope
             (pointer_type (type_identifier) @scope)
             (generic_type type: (type_identifier) @scope)
             (pointer_type (generic_type type: (type_identifier) @scope))]))
  name: (field_identifier) @name) @definition.method

((type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct @also.type
  (#not-match? @definition.struct "^type\\s*\\("))
((type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface @also.type
  (#not-match? @definition.interface "^type\\s*\\("))
((type_declaration . [(type_spec name: (type_identifier) @name) (type_alias name: (type_identifier) @name)] .) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))

(type_declaration "(" (type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct @also.type)
(type_declaration "(" (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface @also.type)
(type_declaration "(" [(type_spec name: (type_identifier) @name) (type_alias name: (type_identifier) @name)] @definition.type)

; Package-level variables and constants (inside a function they are locals).
; Only a spec of one name is a definition: `var a, b = 1, 2` is not.
((var_declaration (var_spec name: (identifier) @name) @_spec) @definition.variable
  (#not-match? @_spec "^[A-Za-z_0-9]+\\s*,"))
((const_declaration . (const_spec name: (identifier) @name) @_spec .) @definition.variable
  (#not-match? @definition.variable "^const\\s*\\(")
  (#not-match? @_spec "^[A-Za-z_0-9]+\\s*,"))
((var_spec_list (var_spec name: (identifier) @name) @definition.variable)
  (#not-match? @definition.variable "^[A-Za-z_0-9]+\\s*,"))
((const_declaration "(" (const_spec name: (identifier) @name) @definition.variable)
  (#not-match? @definition.variable "^[A-Za-z_0-9]+\\s*,"))
