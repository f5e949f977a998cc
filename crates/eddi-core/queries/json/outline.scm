; The outline of a JSON file: every key of an object, nested keys under
; the key whose value holds them (tags convention: @definition.<kind>
; around an element, @name on its name).
(pair
  key: (string (string_content) @name)) @definition.key
