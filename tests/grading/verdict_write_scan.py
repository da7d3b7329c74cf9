"""The scan behind the one-verdict-writer contract: every way the project's code can write a
submission's verdict fields, found in the source.

What is scanned is derived, not listed: every module of every installed app whose code lives
in this repository (a new app is scanned the day it is installed), and every project module
those import, followed to the end (the row builders of `core/`, an app's bulk helpers). No
migrations, no tests.

What counts as a write of verdict fields (`VERDICT_FIELDS` of grading/verdicts.py):
- the ORM: `update`, `create`, `bulk_update`, `update_or_create`, `get_or_create` on
  submissions naming one, `save(update_fields=...)` listing one, an assignment to one on a
  submission object, a `Submission(...)` built graded (only a pending, ungraded answer may be
  stored outside the writer);
- SQL: a statement text that writes the submissions' table (its name read from the model);
- the project's own row writers: a function anywhere in the scanned code that writes rows of
  a model or instance it is given (its `objects` written, its `save()` called, or SQL built
  from its `_meta` executed), found by reading each function, and every function that passes
  its parameter on to one. Calling such a writer with a submission (or the Submission model)
  as what it writes is a write of verdict fields, unless it only inserts (then the instance
  was built, and checked, by the `Submission(...)` rule) or the fields it is told to write are
  listed and hold none. Functions of the allowed modules are not writers: calling the verdict
  writer is the sanctioned way.
"""

import ast
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.apps import apps

from grading.models import Submission
from grading.verdicts import VERDICT_FIELDS

ROOT = Path(__file__).resolve().parents[2]
#: Fields whose names other models share: flagged only on an object named for a submission.
SHARED = {"score", "feedback", "misconception", "canonical"}
#: Text fields that erasure and retention empty (the verdict's outcome and score stay).
ERASABLE = {"canonical", "feedback", "answer_key"}
#: ORM methods that write rows of their receiver.
ORM_WRITES = ("update", "create", "bulk_update", "update_or_create", "get_or_create")
#: Calls that write the rows of what they are called on, or run SQL they are given.
WRITE_PRIMITIVES = {"update", "bulk_update", "bulk_create", "create", "save",
                    "update_or_create", "get_or_create", "_do_update", "_do_insert"}
SQL_PRIMITIVES = {"execute", "executemany", "copy", "copy_expert", "copy_from"}


def project_scan(allowed: frozenset[str]) -> "Scan":
    """The scan of `project_modules`, the modules at the `allowed` paths allowed to write."""
    return _project_scan(allowed)


@functools.cache
def _project_scan(allowed: frozenset[str]) -> "Scan":
    return Scan({p.relative_to(ROOT).as_posix(): parsed(p) for p in project_modules()},
                set(allowed))


@functools.cache
def project_modules() -> tuple[Path, ...]:
    """The modules scanned: every module of each installed app kept in this repository, then
    every project module they import, transitively (not migrations, not tests)."""
    found: set[Path] = set()
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        if not in_project(path):
            continue
        found.update(p for p in path.rglob("*.py") if in_project(p))
    queue = sorted(found)
    while queue:
        for imported in _imported_modules(queue.pop()):
            if imported not in found:
                found.add(imported)
                queue.append(imported)
    return tuple(sorted(found))


def in_project(path: Path) -> bool:
    """Whether `path` is the project's own code: in this repository, not a test, a migration
    or an installed package (a virtualenv may live inside the checkout, as CI's does)."""
    try:
        parts = path.relative_to(ROOT).parts
    except ValueError:
        return False
    return bool(parts) and parts[0] != "tests" and not parts[0].startswith(".") \
        and "migrations" not in parts and "site-packages" not in parts


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The module at `path`, parsed (once per run)."""
    return ast.parse(path.read_text())


def _imported_modules(path: Path) -> Iterable[Path]:
    """The project's modules that `path` imports (a package's `__init__` and, for `from
    package import name`, the module `name` when it is one)."""
    for node in ast.walk(parsed(path)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            parts = name.split(".")
            for candidate in (ROOT.joinpath(*parts[:-1], f"{parts[-1]}.py"),
                              ROOT.joinpath(*parts, "__init__.py")):
                if candidate.is_file() and in_project(candidate):
                    yield candidate


# --- Row writers: functions that write rows of what they are given


def module_name(path: str) -> str:
    """The dotted name of the module at `path` (relative to the repository)."""
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


@dataclass
class Writer:
    """A function writing rows of its parameters `targets`; `updates`: it may update rows
    (else it only inserts); `fields`: the parameter naming the fields it writes, if any."""

    name: str
    params: list[str]
    targets: set[str]
    updates: bool
    fields: str | None = None


@dataclass
class _Function:
    """What the writer search needs of one function, read once."""

    key: tuple[str, str]
    params: list[str]
    calls: list[tuple[tuple[str, str], ast.Call, dict[str, str]]]  # target, call, taint
    written: set[str]  # parameters written directly
    updates: bool


class Symbols:
    """A module's names: its own functions and what it imports, to resolve a call's target
    to (module, function)."""

    def __init__(self, path: str, tree: ast.Module) -> None:
        self.module = module_name(path)
        self.imported: dict[str, tuple[str, str]] = {}
        self.modules: dict[str, str] = {}
        package = self.module if path.endswith("__init__.py") else self.module.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[:len(parts) - node.level + 1], *([base] if base
                                                                            else [])])
                for alias in node.names:
                    local = alias.asname or alias.name
                    self.imported[local] = (base, alias.name)
                    self.modules[local] = f"{base}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.modules[alias.asname] = alias.name

    def target(self, call: ast.Call) -> tuple[str, str] | None:
        """(module, function) a call goes to, when the source says it."""
        func = call.func
        if isinstance(func, ast.Name):
            return self.imported.get(func.id, (self.module, func.id))
        if isinstance(func, ast.Attribute):
            dotted = ast.unparse(func.value)
            if dotted in self.modules:
                return (self.modules[dotted], func.attr)
            if dotted.split(".")[0] in self.modules or "." in dotted:
                return (dotted, func.attr)  # `package.module.function(...)`
        return None


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [a.arg for a in (*function.args.posonlyargs, *function.args.args,
                            *function.args.kwonlyargs)]


def _root(node: ast.AST) -> str | None:
    """The name a chain of attributes, calls and subscripts starts from (`model` in
    `model.objects.filter(...).update`, `instance` in `type(instance)._meta`)."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "type" and node.args:
                node = node.args[0]
            else:
                node = node.func
        else:
            node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _taint(function: ast.FunctionDef | ast.AsyncFunctionDef,
           nodes: list[ast.AST]) -> dict[str, str]:
    """For each local name that is a parameter or taken from one (`opts = model._meta`,
    `rows = model.objects.filter(...)`), the parameter (`nodes`: the function's)."""
    taint = {p: p for p in _params(function) if p not in ("self", "cls")}
    assignments = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign))]
    for _ in range(3):  # a few passes follow chains of assignments
        for node in assignments:
            if node.value is not None:
                root = _root(node.value)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and root in taint:
                        taint[target.id] = taint[root]
    return taint


def _read(path: str, function: ast.FunctionDef | ast.AsyncFunctionDef,
          symbols: Symbols) -> _Function:
    nodes = list(ast.walk(function))
    taint = _taint(function, nodes)
    written: set[str] = set()
    calls = []
    updates = runs_sql = False
    for node in nodes:
        if isinstance(node, ast.Call):
            name = _callee(node)
            if name in WRITE_PRIMITIVES and isinstance(node.func, ast.Attribute):
                root = _root(node.func.value)
                if root in taint:
                    written.add(taint[root])
                updates |= name in ("update", "bulk_update", "save", "_do_update",
                                    "update_or_create")
            runs_sql |= name in SQL_PRIMITIVES
            target = symbols.target(node)
            if target is not None and target[1] != function.name:
                calls.append((target, node, taint))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            updates |= node.value.lstrip().upper().startswith("UPDATE ")
        elif isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            updates |= isinstance(head, ast.Constant) and str(head.value).lstrip().upper() \
                .startswith("UPDATE ")
    if runs_sql:  # SQL built from the metadata of a model it is given
        for node in nodes:
            if isinstance(node, ast.Attribute) and node.attr == "_meta":
                root = _root(node.value)
                if root in taint:
                    written.add(taint[root])
    return _Function((symbols.module, function.name), _params(function), calls, written,
                     updates)


def row_writers(trees: dict[str, ast.Module], allowed: Iterable[str] = ()
                ) -> tuple[dict[tuple[str, str], Writer], dict[str, Symbols]]:
    """The row writers defined in the modules `trees` ({path: parsed text}) by (module,
    function), those of the `allowed` paths left out; and each module's symbols."""
    functions: list[_Function] = []
    symbols: dict[str, Symbols] = {}
    for path, tree in trees.items():
        symbols[path] = Symbols(path, tree)
        if path in allowed:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append(_read(path, node, symbols[path]))
    writers: dict[tuple[str, str], Writer] = {}
    changed = True
    while changed:  # until no function newly writes through another
        changed = False
        for function in functions:
            targets, updates = set(function.written), function.updates
            for target, call, taint in function.calls:
                writer = writers.get(target)
                if writer is None:
                    continue
                for param in writer.targets:
                    root = _root(argument) if (argument := _bound(call, writer, param)) else None
                    if root in taint:
                        targets.add(taint[root])
                        updates |= writer.updates
            known = writers.get(function.key)
            if targets and (known is None or targets != known.targets
                            or updates != known.updates):
                fields = next((p for p in function.params
                               if p in ("fields", "update_fields", "values", "columns")), None)
                writers[function.key] = Writer(function.key[1], function.params, targets,
                                               updates, fields)
                changed = True
    return writers, symbols


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _bound(call: ast.Call, writer: Writer, param: str | None) -> ast.AST | None:
    """The argument of `call` bound to the writer's parameter `param`."""
    for k in call.keywords:
        if k.arg == param:
            return k.value
    if param not in writer.params:
        return None
    index = writer.params.index(param)
    if 0 <= index < len(call.args) and not any(isinstance(a, ast.Starred)
                                               for a in call.args[:index + 1]):
        return call.args[index]
    return None


# --- The scan


@dataclass
class Scan:
    """Where the scanned `sources` ({path: text or parsed text}) write verdict fields,
    outside `allowed`."""

    sources: dict[str, str | ast.Module]
    allowed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.trees = {path: ast.parse(text) if isinstance(text, str) else text
                      for path, text in self.sources.items()}
        self.writers, self.symbols = row_writers(self.trees, self.allowed)
        self.table = Submission._meta.db_table.lower()

    def offenders(self) -> dict[str, list[str]]:
        """{path: ["line: what", ...]} of every write of verdict fields outside `allowed`."""
        found = {}
        for path in self.sources:
            if path not in self.allowed and (lines := self.violations(path=path)):
                found[path] = lines
        return found

    def violations(self, source: str = "", path: str = "snippet.py") -> list[str]:
        """Where `source`, the module at `path` (a scanned one when `source` is empty), writes
        a submission's verdict fields (line: what)."""
        found: list[str] = []
        tree = self.trees[path] if not source else ast.parse(source)
        symbols = self.symbols.get(path) or Symbols(path, tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                found += self._call(node, symbols)
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if (isinstance(target, ast.Attribute) and target.attr in VERDICT_FIELDS
                            and (target.attr not in SHARED or _names_submission(target.value))):
                        found.append(f"{node.lineno}: .{target.attr} =")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and self._writes_table(node.value):
                found.append(f"{node.lineno}: SQL writing {self.table}")
        return found

    def _writes_table(self, text: str) -> bool:
        sql = " ".join(text.lower().split())
        return any(f"{verb} {self.table}" in sql or f'{verb} "{self.table}"' in sql
                   for verb in ("update", "insert into", "copy"))

    def _call(self, node: ast.Call, symbols: Symbols) -> list[str]:
        name = _callee(node)
        fields = set(VERDICT_FIELDS)
        if isinstance(node.func, ast.Name) and name == "Submission":  # an instance built
            written = _keywords(node) & fields
            written -= {"outcome"} if _pending(node) else set()
            return [f"{node.lineno}: Submission({', '.join(sorted(written))})"] if written else []
        if isinstance(node.func, ast.Attribute) and name in ORM_WRITES \
                and _names_submission(node.func.value):
            written = _keywords(node) & fields
            if name == "create":  # storing a new answer: only as pending, ungraded
                written -= {"outcome"} if _pending(node) else set()
            if name == "bulk_update" and node.args[1:]:
                written |= _listed(node.args[1]) & fields
            return [f"{node.lineno}: {name}({', '.join(sorted(written))})"] if written else []
        if isinstance(node.func, ast.Attribute) and name == "save" \
                and _names_submission(node.func.value):
            for k in node.keywords:
                if k.arg == "update_fields" and _listed(k.value) & fields:
                    return [f"{node.lineno}: save(update_fields=...)"]
            return []
        target = symbols.target(node)
        writer = self.writers.get(target) if target else None
        if writer is not None and writer.updates and self._writes_submission(node, writer):
            return [f"{node.lineno}: {name}() writes a submission's row"]
        return []

    def _writes_submission(self, node: ast.Call, writer: Writer) -> bool:
        fields = set(VERDICT_FIELDS)
        for param in writer.targets:
            argument = _bound(node, writer, param)
            if argument is None or not _names_submission(argument):
                continue
            listed = _bound(node, writer, writer.fields) if writer.fields else None
            if listed is not None and isinstance(listed, (ast.List, ast.Tuple, ast.Set,
                                                          ast.Dict)) \
                    and not (_listed(listed) & fields):
                continue  # told to write other fields only
            return True
        return False


def _names_submission(node: ast.AST) -> bool:
    """Whether the chain of names `node` is (its calls' arguments left out) names a submission:
    `Submission.objects.filter(...)`, `run.submission`, not `LiveAnswer.objects.filter(
    submission=...)`."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        else:
            break
    if isinstance(node, ast.Name):
        names.append(node.id)
    return any("submission" in name.lower() for name in names)


def _keywords(call: ast.Call) -> set[str]:
    """The fields a call's keywords set; emptying the text fields is erasure (privacy), not
    a verdict: outcome and score stay."""
    return {k.arg for k in call.keywords if k.arg and not (
        k.arg in ERASABLE and isinstance(k.value, ast.Constant) and k.value.value == "")}


def _pending(call: ast.Call) -> bool:
    return any(k.arg == "outcome" and ast.unparse(k.value).endswith("PENDING")
               for k in call.keywords)


def _listed(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant)
                and isinstance(k.value, str)}
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant)
                and isinstance(e.value, str)}
    return set()
