; Definitions kopipasta can target in JavaScript and JSX.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.
; A node captured by several patterns keeps the kind of the first one, so the
; function-valued declarations come before the plain variables.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

(class_declaration name: (identifier) @name) @definition.class

; Only class members: a method in an object literal is a value, not a definition.
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

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

; Definitions by assignment (CommonJS, prototypes): a top-level statement that gives a
; name a function is that name's definition, named by its left-hand side (issue 25):
; `res.clearCookie = function …` is `res.clearCookie`, `View.prototype.lookup = …` the
; method `View.prototype.lookup`, `exports.parse = …` is `exports.parse`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression object: (identifier) @scope property: (property_identifier) @scope @_prototype)
        property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)])
    (#eq? @_prototype "prototype")) @definition.method)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @scope property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)])) @definition.function)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression object: (identifier) @scope property: (property_identifier) @scope)
        property: (property_identifier) @name)
      right: [(function_expression) (arrow_function) (generator_function)])) @definition.function)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @scope property: (property_identifier) @name))
    (#any-of? @scope "module" "exports")) @definition.variable)
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression object: (identifier) @scope @_module property: (property_identifier) @scope)
        property: (property_identifier) @name))
    (#eq? @_module "module")) @definition.variable)

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.variable

(lexical_declaration . (variable_declarator name: (identifier) @name) .) @definition.variable
(variable_declaration . (variable_declarator name: (identifier) @name) .) @definition.variable
