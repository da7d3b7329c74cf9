"""Question import and export (issue 44): other systems' question banks in, the service's out.

Moodle XML is read safely (`safe_xml`), each question converted to an ordinary exercise file
(`moodle_questions`, `formulas` for calculated keys), written into a module folder only after the
real content validation passed (`module_writer`), with a report of every question
(`report`). Nothing imported is ever evaluated as code: formulas are translated token by token
into the service's maths grammar, which the checkers read safely.
"""
