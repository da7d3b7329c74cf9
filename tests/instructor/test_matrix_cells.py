"""The progress matrix's part cells, built in Python (instructor/progress.py, cells_html): the
same HTML as the template loop they replace, every value escaped."""

from django.template import Context, Template

from instructor.progress import CLOSED, STATE_LABELS, MatrixCell, MatrixRow

#: The loop the matrix template ran per row before cells_html (instructor/matrix.html).
TEMPLATE_LOOP = Template(
    '{% for cell in row.cells %}<td class="st-{{ cell.state }}" title="{{ cell.state_label }}">'
    "{{ cell.text }} <small>\u00d7{{ cell.attempts }}</small></td>{% endfor %}")


def _row(cells: list[MatrixCell]) -> MatrixRow:
    return MatrixRow(student_id=1, username="ada", name="Ada", group="", total=0.0, attempts=0,
                     last_activity=None, cells=cells, module_points=[], course_percent=None)


def test_the_cells_are_the_html_the_template_loop_rendered():
    cells = [MatrixCell(state=state, best_score=score, points=points, attempts=attempts,
                        overridden=overridden)
             for state in STATE_LABELS
             for score, points, attempts, overridden in ((None, None, 0, False),
                                                         (0.5, 1.25, 3, False),
                                                         (1.0, 2.0, 12345, True))]
    row = _row(cells)
    assert {c.state for c in cells} >= {CLOSED, "correct", "review"}
    assert row.cells_html == TEMPLATE_LOOP.render(Context({"row": row}))


def test_an_unexpected_state_label_is_escaped(monkeypatch):
    from instructor import progress

    monkeypatch.setitem(progress.STATE_LABELS, "odd", 'a "quoted" <label>')
    progress._cell_start.cache_clear()
    try:
        html = _row([MatrixCell(state="odd", best_score=None, points=None, attempts=1,
                                overridden=False)]).cells_html
    finally:
        progress._cell_start.cache_clear()
    assert 'title="a &quot;quoted&quot; &lt;label&gt;"' in html
