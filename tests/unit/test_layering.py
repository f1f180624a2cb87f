"""Dependencies point one way: v1/ -> engine -> backends; the engine never imports v1, and no engine import cycles.

Read from the source (every ``import``, at module level or inside a function, and ``import_module("literal")``), so
an import hidden in a function counts as much as one at the top. ``from package import submodule`` is an import of
the submodule: its package is initialised before it in any case, so that is not a dependency on the package.
"""

import ast
import os

import acpt_estimator

ROOT = os.path.dirname(acpt_estimator.__file__)
# Deliberate exceptions (module -> v1 module, with why). There are none: the public door (acpt_estimator/__init__,
# not part of the engine) registers v1's Run wrapper with run_handle.set_presenter instead.
ALLOWED_ENGINE_TO_V1: dict = {}


def _modules() -> dict:
    found = {}
    for folder, _, files in os.walk(ROOT):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = "acpt_estimator." + os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                found[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    found["acpt_estimator"] = found.pop("acpt_estimator.__init__", os.path.join(ROOT, "__init__.py"))
    return found


def _absolute(module: str, is_package: bool, level: int, name) -> str:
    if level == 0:
        return name or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[:len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


def _known(name: str, modules: dict) -> str:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def _imports(module: str, path: str, modules: dict) -> dict:
    """{imported acpt_estimator module: first line}, for every import in the file."""
    found = {}
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path.endswith("__init__.py"), node.level, node.module)
            subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            names = subs if len(subs) == len(node.names) else [base] + subs
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == \
                "import_module" and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        for name in names:
            target = _known(name, modules)
            if target and target != module and not module.startswith(target + "."):
                found.setdefault(target, node.lineno)
    return found


def _is_v1(module: str) -> bool:
    return module == "acpt_estimator.v1" or module.startswith("acpt_estimator.v1.")


def _is_engine(module: str) -> bool:
    return module != "acpt_estimator" and not _is_v1(module) and not module.startswith("acpt_estimator.job_runtime")


MODULES = _modules()
GRAPH = {m: _imports(m, p, MODULES) for m, p in MODULES.items()}


def _cycles(nodes) -> list:
    """Strongly connected components of more than one module among ``nodes`` (Tarjan)."""
    nodes = set(nodes)
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def test_the_engine_imports_nothing_from_v1():
    upward = [f"{m} (line {line}) imports {target}" for m in sorted(GRAPH) if _is_engine(m)
              for target, line in GRAPH[m].items() if _is_v1(target) and ALLOWED_ENGINE_TO_V1.get(m) != target]
    assert upward == [], "the engine must not import acpt_estimator.v1:\n" + "\n".join(upward)


def test_no_import_cycle_among_engine_modules_or_across_the_layers():
    engine_cycles = _cycles(m for m in GRAPH if _is_engine(m))
    assert engine_cycles == [], f"import cycles among engine modules: {engine_cycles}"
    mixed = [c for c in _cycles(GRAPH) if any(map(_is_v1, c)) and any(map(_is_engine, c))]
    assert mixed == [], f"import cycles spanning v1 and the engine: {mixed}"


def test_the_job_runtime_needs_only_itself():
    """job_runtime/ ships inside jobs without the rest of the package."""
    outside = [f"{m} imports {t}" for m in sorted(GRAPH) if m.startswith("acpt_estimator.job_runtime")
               for t in GRAPH[m] if not t.startswith("acpt_estimator.job_runtime")]
    assert outside == []


def test_the_walk_sees_the_whole_package():
    """Guards the walk itself: it must find the engine, v1 and the imports inside functions."""
    assert "acpt_estimator.arguments" in GRAPH and "acpt_estimator.v1.core.run" in GRAPH
    assert "acpt_estimator.backends.local.run" in GRAPH["acpt_estimator.v1.core.run"]  # imported in get_context()
