"""chonkie's CodeChunker offline, on the grammar wheels partita uses (for `_code_rows.py`).

`CodeChunker.__init__` calls `tree_sitter_language_pack.download_all()` when at
most 19 grammars are cached, and the language pack loads each grammar from a shared library
`libtree_sitter_<name>.so` in its cache directory, downloading what is missing. Here nothing is
downloaded: `offline_language_pack()` points the pack at a temporary cache directory
(`configure(PackConfig(cache_dir=...))`), compiles there, with gcc and the Python headers, one
small C shim per language whose `tree_sitter_<name>()` returns the grammar of the installed
`tree_sitter_<name>` wheel (the pointer in its `language()` capsule, through the Python C API),
and replaces `download_all` in the benchmark process by a function that downloads nothing. So
chonkie parses with the very grammars partita uses, and the network guard
(`_reference.block_network`) would stop any other download.
"""

from __future__ import annotations

import atexit
import importlib.util
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["GRAMMARS", "offline_language_pack"]

GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "java": ("tree_sitter_java", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
}
"""Language-pack name: the installed grammar wheel's module and its function returning the
`tree_sitter.Language` capsule."""


SHIM = r"""
#include <Python.h>

/* tree-sitter-language-pack loads tree_sitter_%(name)s() from libtree_sitter_%(name)s.so; this
   one hands it the grammar of the installed %(module)s wheel (its %(function)s() capsule). */
const void *tree_sitter_%(name)s(void) {
    const void *language = NULL;
    PyGILState_STATE state = PyGILState_Ensure();
    PyObject *module = PyImport_ImportModule("%(module)s");
    if (module != NULL) {
        PyObject *capsule = PyObject_CallMethod(module, "%(function)s", NULL);
        if (capsule != NULL) {
            language = PyCapsule_GetPointer(capsule, "tree_sitter.Language");
            Py_DECREF(capsule);
        }
        Py_DECREF(module);
    }
    if (language == NULL) {
        PyErr_Clear();
    }
    PyGILState_Release(state);
    return language;
}
"""


def _no_download(*args: Any, **kwargs: Any) -> int:
    """Stands for `tree_sitter_language_pack.download_all` in the benchmark: nothing to fetch."""
    return 0


_offline_state: dict[str, Any] = {}


def offline_language_pack() -> str | None:
    """Set tree_sitter_language_pack up to load the installed grammar wheels through C shims in a
    temporary cache directory, and keep `download_all` from downloading. Returns None when ready,
    else why chonkie's `CodeChunker` cannot run."""
    if "error" in _offline_state:
        return str(_offline_state["error"])
    if "ready" in _offline_state:
        return None
    try:
        import chonkie  # noqa: F401
        import tree_sitter_language_pack as pack
    except ImportError as error:
        _offline_state["error"] = (
            f"not installed (pip install chonkie tree-sitter-language-pack): {error.name}"
        )
        return str(_offline_state["error"])
    compiler = shutil.which("gcc") or shutil.which("cc")
    include = sysconfig.get_paths()["include"]
    if compiler is None or not (Path(include) / "Python.h").exists():
        _offline_state["error"] = "no C compiler or Python headers for the grammar shims"
        return str(_offline_state["error"])
    workdir = Path(tempfile.mkdtemp(prefix="partita-bench-ts-pack-"))
    atexit.register(shutil.rmtree, workdir, True)
    pack.configure(pack.PackConfig(cache_dir=str(workdir / "cache")))
    libs = Path(pack.cache_dir())
    libs.mkdir(parents=True, exist_ok=True)
    for name, (module, function) in GRAMMARS.items():
        if importlib.util.find_spec(module) is None:  # -- its row says the grammar is missing --
            continue
        source = workdir / f"tree_sitter_{name}.c"
        source.write_text(SHIM % {"name": name, "module": module, "function": function})
        lib = libs / f"libtree_sitter_{name}.so"
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(lib)],
            check=True,
        )
    pack.download_all = _no_download  # -- CodeChunker.__init__ calls it with <= 19 grammars --
    importable = {
        name for name, (module, _) in GRAMMARS.items() if importlib.util.find_spec(module)
    }
    missing = importable - set(pack.downloaded_languages())
    if missing:
        _offline_state["error"] = f"the language pack does not see the shims of {sorted(missing)}"
        return str(_offline_state["error"])
    _offline_state["ready"] = workdir
    return None
