#!/usr/bin/env bash
# Builds the API reference from the docstrings with pdoc (pinned in the `dev` extra) into site/
# (open site/index.html): every module of the dualgraph package but private ones (_name). The
# hand-written pages are Markdown in docs/ (start at docs/README.md), read where they lie.
# Fails when pdoc reports a problem: a module that does not import, a name in __all__ that does not
# resolve, anything else pdoc warns about, except type annotations it cannot evaluate (a NamedTuple's
# forward references, a GPU-only class on a CPU build of FAISS), which are printed as notes.
#   bash scripts/docs.sh                       with .venv (scripts/setup.sh --test installs pdoc)
#   VENV=/path/to/venv bash scripts/docs.sh    with another environment
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
rm -rf site
# run from the repository root, so `dualgraph` is this checkout's package
"$VENV/bin/python" - site <<'PY'
import importlib
import pkgutil
import sys
import warnings
from pathlib import Path

import pdoc.doc
import pdoc.render

import dualgraph

OUT = Path(sys.argv[1])
PDOC_DIR = str(Path(pdoc.__file__).parent)
BENIGN = ("Error parsing type annotation",)

# no source listings: the reference is the docstrings (the source is in the repository), and
# highlighting every function's source took half the build
pdoc.render.configure(footer_text=f"DualGraph {dualgraph.__version__}", show_source=False)

problems: list[str] = []
# Every module of the package, not only those a subpackage's __all__ names (pdoc's own walk stops
# there); private ones (a name part starting with "_") are left out.
names = ["dualgraph"] + [
    m.name
    for m in pkgutil.walk_packages(dualgraph.__path__, "dualgraph.", onerror=lambda n: problems.append(n))
    if not any(part.startswith("_") for part in m.name.split("."))
]
problems = [f"package {n} does not import" for n in problems]
modules: dict[str, pdoc.doc.Module] = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for name in names:
        try:
            mod = importlib.import_module(name)
        except Exception as e:
            problems.append(f"{name} does not import: {e}")
            continue
        # Names of __all__ a package imports on first use (`dualgraph.DualGraph`, so that `import
        # dualgraph` stays light): pdoc looks for them in the module's namespace, so the build
        # puts them there. One that does not resolve is an error.
        for export in getattr(mod, "__all__", ()):
            if export not in vars(mod) and hasattr(mod, "__getattr__"):
                try:
                    setattr(mod, export, getattr(mod, export))
                except Exception as e:
                    problems.append(f"{name}.__all__ names {export!r}, which does not resolve: {e}")
        modules[name] = pdoc.doc.Module(mod)
    for module in modules.values():
        page = OUT / f"{module.fullname.replace('.', '/')}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(pdoc.render.html_module(module, modules), encoding="utf-8")
    (OUT / "index.html").write_text(pdoc.render.html_index(modules), encoding="utf-8")
    (OUT / "search.js").write_text(pdoc.render.search_index(modules), encoding="utf-8")
for w in caught:
    if not w.filename.startswith(PDOC_DIR):
        continue  # a library's own warning on import (a deprecation, say), not pdoc's
    if str(w.message).startswith(BENIGN):
        print(f"pdoc note: {w.message}", file=sys.stderr)
    else:
        problems.append(str(w.message))
for p in problems:
    print(f"pdoc ERROR: {p}", file=sys.stderr)
print(f"docs: {len(modules)} modules in {OUT}/index.html; {len(problems)} errors")
sys.exit(1 if problems else 0)
PY
