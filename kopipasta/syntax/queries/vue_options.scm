; Vue's Options API, added to the JS/TS query for a component's <script> (Embedding.extra_queries):
; `export default { data() {}, methods: { toggle() {} }, computed: { label() {} } }` —
; what Vue programmers call the component's methods, though they stand in an object literal.
; `methods.toggle` and `toggle` both name the method; `defineComponent({ … })` alike.

(export_statement
  value: [(object
            (pair
              key: (property_identifier) @scope
              value: (object (method_definition name: (property_identifier) @name) @definition.method)))
          (call_expression
            arguments: (arguments
              (object
                (pair
                  key: (property_identifier) @scope
                  value: (object (method_definition name: (property_identifier) @name) @definition.method)))))])

(export_statement
  value: [(object (method_definition name: (property_identifier) @name) @definition.method)
          (call_expression
            arguments: (arguments
              (object (method_definition name: (property_identifier) @name) @definition.method)))])
