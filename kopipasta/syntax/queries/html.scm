; Markup definitions of an HTML page (issue 25): an element with an `id`,
; named as a selector writes it (`#sidebar`, syntax/markup_names.py). An
; element with an id inside another is qualified by it.

([(element (start_tag (attribute (attribute_name) @_attribute
    [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)])))
  (element (self_closing_tag (attribute (attribute_name) @_attribute
    [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)])))
  (script_element (start_tag (attribute (attribute_name) @_attribute
    [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)])))
  (style_element (start_tag (attribute (attribute_name) @_attribute
    [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)])))] @definition.element
 (#match? @_attribute "^[iI][dD]$"))
