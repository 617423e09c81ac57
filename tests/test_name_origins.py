"""Imports name the module that defines what they import (issue 35): no `__all__`
facade hands on names a split left behind, so an import says where the code lives."""

from __future__ import annotations

from pathlib import Path

from . import name_origins
from .import_graph import modules

# (module, name) pairs another module may import from a module that only imports
# them, each with its reason. None today: a package's registry (core/profiles)
# defines what it hands out.
ALLOWED: dict[tuple[str, str], str] = {}


def test_no_all_lists_a_name_its_module_does_not_define() -> None:
    assert name_origins.undefined_all(name_origins.read()) == []


def test_imports_in_the_package_and_the_tests_name_the_defining_module() -> None:
    known = name_origins.read()
    files = {**modules("skillstudio"), **modules("tests")}
    found = name_origins.reexports(known, files, ALLOWED)
    assert [str(r) for r in found] == [], "import these names from where they are defined"


def test_the_package_reads_no_name_through_a_module_that_only_imports_it() -> None:
    found = name_origins.reexported_attributes(name_origins.read())
    assert [str(r) for r in found] == []


def test_a_reexport_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .deep import Deep\n__all__ = ['Deep']\n")
    (pkg / "sub" / "deep.py").write_text("try:\n    import x\nexcept ImportError:\n    Deep = 1\n")
    (pkg / "base.py").write_text("def f() -> None: ...\nclass C: ...\nK: int = 1\n")
    (pkg / "facade.py").write_text("from .base import C, K, f as g\n__all__ = ['C', 'g', 'own']\n")
    (pkg / "user.py").write_text(
        "from . import facade\n"
        "from .base import C\n"  # from where it is defined
        "from .sub import deep\n"  # a submodule
        "def h() -> None:\n"
        "    from .facade import C, g\n"  # handed on, even inside a function
        "    from pkg.sub import Deep\n"
        "    facade.g()\n"
    )
    known = name_origins.read("pkg", str(tmp_path))
    assert known["pkg.sub.deep"].defined == {"Deep"}
    assert name_origins.undefined_all(known) == [
        "pkg.facade: C",
        "pkg.facade: g",
        "pkg.facade: own",
        "pkg.sub: Deep",
    ]
    files = modules("pkg", str(tmp_path))
    found = [(r.line, r.named, r.name, r.defined_in) for r in name_origins.reexports(known, files)]
    assert found == [
        (5, "pkg.facade", "C", "pkg.base"),
        (5, "pkg.facade", "g", "pkg.base"),
        (6, "pkg.sub", "Deep", "pkg.sub.deep"),
    ]
    assert name_origins.reexports(known, files, [("pkg.facade", "C"), ("pkg.facade", "g")]) != []
    allowed = [("pkg.facade", "C"), ("pkg.facade", "g"), ("pkg.sub", "Deep")]
    assert name_origins.reexports(known, files, allowed) == []
    attributes = [(r.line, r.name) for r in name_origins.reexported_attributes(known)]
    assert attributes == [(7, "g")]
