; Definitions kopipasta can target in Lua.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @scope on qualifiers written in the definition itself: `function M.add` is
; `M.add`, `function M:new` is the method `M.new`, `function a.b.c` is `a.b.c`.
; `local` is a prefix (LanguageSpec.prefix_types): a payload without it keeps it.

(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (identifier) @scope field: (identifier) @name)) @definition.function
(function_declaration
  name: (dot_index_expression
    table: (dot_index_expression table: (identifier) @scope field: (identifier) @scope)
    field: (identifier) @name)) @definition.function
(function_declaration
  name: (dot_index_expression
    table: (dot_index_expression
      table: (dot_index_expression table: (identifier) @scope field: (identifier) @scope)
      field: (identifier) @scope)
    field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (identifier) @scope method: (identifier) @name)) @definition.method
(function_declaration
  name: (method_index_expression
    table: (dot_index_expression table: (identifier) @scope field: (identifier) @scope)
    method: (identifier) @name)) @definition.method

; local f = function(...) … end, M.f = function(...) … end
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name .)
    (expression_list . value: (function_definition) .))) @definition.function
(chunk
  (assignment_statement
    (variable_list . name: (identifier) @name .)
    (expression_list . value: (function_definition) .)) @definition.function)
(chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @scope field: (identifier) @name) .)
    (expression_list . value: (function_definition) .)) @definition.function)

; Variables at file level (locals inside functions are not definitions).
(variable_declaration
  (assignment_statement (variable_list . name: (identifier) @name .))) @definition.variable
(chunk
  (assignment_statement
    (variable_list . name: (dot_index_expression table: (identifier) @scope field: (identifier) @name) .)) @definition.variable)
