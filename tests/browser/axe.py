"""axe-core (vendored under tests/browser/vendor/, no CDN) run with the WCAG 2.2 A and AA rules.

A context that runs it is made with `bypass_csp=True` only so that the script can be added to
the page; the pages themselves are unchanged.
"""

from pathlib import Path

from playwright.sync_api import BrowserContext, Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"

#: The rule sets of WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe-core's tags).
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                          resultTypes: ["violations"]});
  return result.violations.map(v => v.id + ": " + v.nodes.map(
    n => n.target.join(" ") + " (" + (n.failureSummary || "").split("\\n").slice(1).join(" ").trim() + ")"
  ).join(", "));
}"""


def axe_in_every_page(context: BrowserContext) -> None:
    """Make axe-core available in every page the context opens from now on."""
    context.add_init_script(path=str(AXE))


def wcag_violations(page: Page) -> list[str]:
    """The WCAG 2.2 A/AA violations axe-core finds in the page as it is now: one line per rule,
    naming the elements and what is wrong with each."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    return list(page.evaluate(_RUN, WCAG_22_AA))


#: Every element of the page a keyboard can reach (that is shown), focused in turn after one
#: Tab press (so that the browser shows focus as it does for the keyboard): those that then
#: show no outline of 2 px or more and no box shadow (WCAG 2.4.7), as short descriptions.
_UNSEEN_FOCUS = """() => {
  const reachable = "a[href], button, input:not([type=hidden]), select, textarea, summary, "
                    + "[tabindex]:not([tabindex='-1'])";
  const unseen = [];
  for (const e of document.querySelectorAll(reachable)) {
    if (e.disabled || !e.getClientRects().length || getComputedStyle(e).visibility === "hidden") continue;
    e.focus();
    if (document.activeElement !== e) continue;
    const style = getComputedStyle(e);
    const shown = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2)
                  || style.boxShadow !== "none";
    if (!shown) unseen.push(e.outerHTML.slice(0, 100));
  }
  document.activeElement.blur();
  return unseen;
}"""


def unseen_focus(page: Page) -> list[str]:
    """The elements of the page that show no focus indicator when the keyboard reaches them."""
    page.keyboard.press("Tab")
    return list(page.evaluate(_UNSEEN_FOCUS))
