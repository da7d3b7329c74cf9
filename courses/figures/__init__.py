"""Figures drawn from the numbers in a content file: a heat map of a matrix, arrows in a
plane, bars of a vector and lines of series. Each kind is one module with `problems(data)`
(what sync reports, as key paths inside `[data]` and reasons) and `context(figure, choice)`
(what its template draws); `courses.figure_kinds` registers them."""
